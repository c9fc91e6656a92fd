/** One flushed piece of a streamed log (a build step's, a deployment's): lines joined by newlines, numbered by seq from 0. */
export type SeqChunk = { seq: number; text: string };

const bySeq = (a: SeqChunk, b: SeqChunk) => a.seq - b.seq;

/** Whether `chunks` (in seq order) holds `seq`. */
function holds(chunks: readonly SeqChunk[], seq: number): boolean {
  let lo = 0;
  let hi = chunks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = chunks[mid]!.seq;
    if (at === seq) return true;
    if (at < seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * Adds the chunks not held yet (by seq), keeping seq order; `held` itself when nothing is new.
 * The backlog sent on (re)subscribing overlaps the live chunks and the stored log read over HTTP.
 */
export function mergeChunks<C extends SeqChunk>(held: C[], incoming: readonly C[]): C[] {
  const added = new Set<number>();
  const fresh = incoming.filter((c) => !holds(held, c.seq) && !added.has(c.seq) && added.add(c.seq));
  if (!fresh.length) return held;
  const next = [...held, ...fresh];
  // Chunks almost always arrive in order; sort only when one did not.
  for (let i = Math.max(held.length, 1); i < next.length; i += 1) {
    if (next[i - 1]!.seq > next[i]!.seq) return next.sort(bySeq);
  }
  return next;
}

// eslint-disable-next-line no-control-regex -- ESC (\x1b) opens the ANSI colour codes tools print
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

/** The display lines of a log: ANSI codes stripped, and a chunk's trailing newline is no extra line. */
export const chunkLines = (chunks: readonly SeqChunk[]): string[] =>
  chunks.flatMap((c) =>
    c.text
      .replace(ANSI, '')
      .replace(/\r?\n$/, '')
      .split(/\r?\n/),
  );
