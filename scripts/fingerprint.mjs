// The content hash of a build's inputs (files and folders, relative to the repository root): a build
// is redone only when it changes (web app: scripts/build-web.mjs, server: apps/server/build.mjs).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

function* files(p, skip) {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (!st) return;
  if (!st.isDirectory()) return yield p;
  for (const name of fs.readdirSync(p).sort()) if (!skip(name)) yield* files(path.join(p, name), skip);
}

/** sha256 over each input file's path and content, after `salt`; `skip` leaves out names (e.g. tests). */
export function fingerprint(root, inputs, { salt = '', skip = () => false } = {}) {
  const hash = crypto.createHash('sha256').update(`${salt}\n`);
  for (const input of inputs)
    for (const p of files(path.join(root, input), skip))
      hash
        .update(`${path.relative(root, p)}\0`)
        .update(fs.readFileSync(p))
        .update('\0');
  return hash.digest('hex');
}
