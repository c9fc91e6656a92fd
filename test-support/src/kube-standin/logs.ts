/** Container logs the stand-in's "kubelet" keeps: the current and the previous instance per container. */

export interface LogLine {
  time: string;
  text: string;
}
interface Follower {
  uid: string;
  container: string;
  onLine(l: LogLine): void;
  onEnd(): void;
}

export class LogBook {
  private readonly logs = new Map<string, Map<string, { current: LogLine[]; previous?: LogLine[] }>>();
  private readonly followers = new Set<Follower>();

  private slot(uid: string, container: string) {
    let pod = this.logs.get(uid);
    if (!pod) this.logs.set(uid, (pod = new Map()));
    let c = pod.get(container);
    if (!c) pod.set(container, (c = { current: [] }));
    return c;
  }

  /** A container (re)starts: what it wrote so far becomes the previous instance's log. */
  start(uid: string, container: string, lines: string[]) {
    const c = this.slot(uid, container);
    if (c.current.length) c.previous = c.current;
    c.current = [];
    for (const l of lines) this.append(uid, container, l);
  }

  append(uid: string, container: string, text: string) {
    const line = { time: new Date().toISOString().replace('Z', '000000Z'), text };
    this.slot(uid, container).current.push(line);
    for (const f of this.followers) if (f.uid === uid && f.container === container) f.onLine(line);
  }

  lines(uid: string, container: string, previous: boolean): LogLine[] | undefined {
    const c = this.logs.get(uid)?.get(container);
    return previous ? c?.previous : (c?.current ?? []);
  }

  follow(uid: string, container: string, onLine: (l: LogLine) => void, onEnd: () => void): () => void {
    const f = { uid, container, onLine, onEnd };
    this.followers.add(f);
    return () => this.followers.delete(f);
  }

  /** The pod is gone: follow streams end, as the kubelet closes them. */
  forget(uid: string) {
    this.logs.delete(uid);
    for (const f of [...this.followers])
      if (f.uid === uid) {
        this.followers.delete(f);
        f.onEnd();
      }
  }
}
