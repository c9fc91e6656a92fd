import fs from 'node:fs';
import path from 'node:path';
import { minimatch } from 'minimatch';

/**
 * Reading and writing a run's workspace from the server, which runs with more rights than the
 * user code that wrote it: a workspace may hold links to anywhere on the host (`ln -s
 * /data/secret.key report.json`), so every path is checked lexically and by its real path, links
 * are never followed out of the workspace, and files are never written through a link.
 */

const within = (root: string, p: string) => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

function realRoot(root: string) {
  return fs.realpathSync(root);
}

/** `rel` under `base`, or null when it leaves `root` — by its text (`../x`) or, where it exists, by its real path (links). */
export function resolveInside(root: string, base: string, rel: string): string | null {
  const full = path.resolve(base, rel.replace(/^\/+/, ''));
  if (!within(path.resolve(root), full)) return null;
  let real: string;
  try {
    real = fs.realpathSync(full);
  } catch {
    // not there (yet): its deepest existing ancestor must still be inside
    let parent = path.dirname(full);
    while (!fs.existsSync(parent) && parent !== path.dirname(parent)) parent = path.dirname(parent);
    return within(realRoot(root), fs.realpathSync(parent)) ? full : null;
  }
  return within(realRoot(root), real) ? full : null;
}

export interface WorkspaceFile {
  /** The file's real path (inside the root). */
  abs: string;
  /** Its path relative to the folder listed, '/'-separated. */
  rel: string;
}

/**
 * The regular files below `dir`, whose real paths stay inside `root`. Links to files or folders
 * inside are followed once (no cycles); links out of the workspace are skipped and named in `skipped`.
 */
export function listFilesInside(root: string, dir: string, opts: { ignore?: string[] } = {}): { files: WorkspaceFile[]; skipped: string[] } {
  const top = realRoot(root);
  const files: WorkspaceFile[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  const ignored = (rel: string) => (opts.ignore ?? []).some((g) => minimatch(rel, g, { dot: true }));
  const walk = (abs: string, rel: string) => {
    let real: string;
    try {
      real = fs.realpathSync(abs);
    } catch {
      return; // a dangling link
    }
    if (!within(top, real)) {
      skipped.push(rel || '.');
      return;
    }
    const st = fs.statSync(real);
    if (st.isDirectory()) {
      if (seen.has(real)) return;
      seen.add(real);
      for (const entry of fs.readdirSync(real).sort()) {
        const childRel = rel ? `${rel}/${entry}` : entry;
        if (ignored(childRel) || ignored(`${childRel}/`)) continue;
        walk(path.join(real, entry), childRel);
      }
    } else if (st.isFile() && rel) {
      files.push({ abs: real, rel });
    }
  };
  const start = resolveInside(root, root, path.relative(root, dir));
  if (start && fs.existsSync(start)) walk(start, '');
  return { files, skipped };
}

/** Files below `cwd` matching a glob (relative to `cwd`), inside `root` only. */
export function globInside(root: string, cwd: string, pattern: string): { files: WorkspaceFile[]; skipped: string[] } {
  const { files, skipped } = listFilesInside(root, cwd);
  return { files: files.filter((f) => minimatch(f.rel, pattern, { dot: true })), skipped };
}

/** A regular file's content, only when its real path is inside `root`. */
export function readFileInside(root: string, file: string): Buffer {
  const real = resolveInside(root, root, path.relative(root, file));
  if (!real) throw new Error(`${path.relative(root, file)} points outside the workspace`);
  const st = fs.statSync(real);
  if (!st.isFile()) throw new Error(`${path.relative(root, file)} is not a file`);
  return fs.readFileSync(fs.realpathSync(real));
}

/** Writes a file, refusing to go through a link the run left in its place (O_NOFOLLOW); replaces a link by a file. */
export function writeFileNoFollow(file: string, data: string | Buffer, mode = 0o644) {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (st && !st.isFile()) fs.rmSync(file, { recursive: true, force: true });
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | fs.constants.O_NOFOLLOW, mode);
  try {
    fs.writeFileSync(fd, data);
  } finally {
    fs.closeSync(fd);
  }
}

/** Makes `dir` a real folder (a link the run put there is removed first). */
export function ensureRealDir(dir: string, mode?: number) {
  const st = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (st && !st.isDirectory()) fs.rmSync(dir, { force: true });
  fs.mkdirSync(dir, { recursive: true, ...(mode ? { mode } : {}) });
}

/** rm -rf that also removes what the run made unwritable to itself (chmod 000 folders). */
export async function removeTree(dir: string) {
  try {
    await fs.promises.rm(dir, { recursive: true, force: true });
  } catch {
    const open = (p: string) => {
      const st = fs.lstatSync(p, { throwIfNoEntry: false });
      if (!st || !st.isDirectory()) return;
      fs.chmodSync(p, 0o700);
      for (const e of fs.readdirSync(p)) open(path.join(p, e));
    };
    open(dir);
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
