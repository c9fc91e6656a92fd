/**
 * The image reference rules of a `docker-push` step.
 *
 * Tag: the step's `tag` (placeholders resolved) or, when none is given, the commit's short sha
 * (7 characters) — a build pushes exactly one tag. `latest` is NOT pushed as well: a user who
 * deploys "the image of commit abc1234" expects that tag, and one who wants `latest` writes
 * `tag: latest` (a second step can push another tag of the same build). Moving `latest` behind a
 * user's back would also change what every unpinned deployment pulls next.
 */
export interface ImageTarget {
  host: string;
  repositoryPrefix: string;
  imageName: string;
  tag: string;
}

/** Docker's grammar: lowercase path components separated by `/`, each [a-z0-9] runs joined by `.`, `_`, `__` or dashes. */
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const HOST = /^[a-zA-Z0-9.-]+(?::\d{1,5})?$|^\[[0-9a-fA-F:]+\](?::\d{1,5})?$/;

export const SHORT_SHA_LENGTH = 7;

export function defaultTag(commitSha: string | null | undefined): string {
  const sha = (commitSha ?? '').trim();
  if (!sha) throw new Error('The docker-push step has no tag and the build has no commit to tag the image with: set `tag`');
  return sha.slice(0, SHORT_SHA_LENGTH);
}

/** The step's tag, or the default one; throws a user-readable error when it is not a valid Docker tag. */
export function imageTag(given: string | undefined, commitSha: string | null | undefined): string {
  const tag = given === undefined || given.trim() === '' ? defaultTag(commitSha) : given.trim();
  if (!TAG.test(tag)) throw new Error(`"${tag}" is not a valid image tag (letters, digits, _, . and -, at most 128, not starting with . or -)`);
  return tag;
}

export function checkImageName(name: string): string {
  const n = name.trim().replace(/^\/+|\/+$/g, '');
  if (!n || n.split('/').some((c) => !PATH_COMPONENT.test(c))) {
    throw new Error(`"${name}" is not a valid image name (lowercase letters, digits and . _ - separators, path parts joined by /)`);
  }
  return n;
}

/** The repository an image is pushed to: `{prefix/}{image_name}`. */
export function repositoryOf(t: Pick<ImageTarget, 'repositoryPrefix' | 'imageName'>): string {
  const prefix = t.repositoryPrefix.replace(/^\/+|\/+$/g, '');
  const name = checkImageName(t.imageName);
  if (prefix && prefix.split('/').some((c) => !PATH_COMPONENT.test(c)))
    throw new Error(`The registry's repository prefix "${t.repositoryPrefix}" is not a valid image path`);
  return prefix ? `${prefix}/${name}` : name;
}

/** `{host}/{prefix/}{image_name}:{tag}` */
export function imageReference(t: ImageTarget): string {
  if (!HOST.test(t.host)) throw new Error(`The registry host "${t.host}" is not a valid host[:port]`);
  return `${t.host}/${repositoryOf(t)}:${t.tag}`;
}

/** The containers-auth.json of one registry (what `--authfile` reads). */
export function authFileContent(host: string, username: string, password: string): string {
  return JSON.stringify({ auths: { [host]: { auth: Buffer.from(`${username}:${password}`, 'utf8').toString('base64') } } });
}

/**
 * The instructions of a Dockerfile (continuation lines joined, comments and blank lines left out),
 * upper-cased: an unprivileged server refuses RUN before building.
 */
export function dockerfileInstructions(text: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!current && (line === '' || line.startsWith('#'))) continue;
    if (current && line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    current += line;
    const word = /^(\S+)/.exec(current)?.[1];
    if (word) out.push(word.toUpperCase());
    current = '';
  }
  if (current.trim()) out.push(/^(\S+)/.exec(current.trim())![1]!.toUpperCase());
  return out;
}
