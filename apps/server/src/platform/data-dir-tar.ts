/**
 * Writes out the files of a tar as PGlite's dumpDataDir makes it (ustar: regular files and
 * directories, names relative to the data dir), so a new data dir can be made from the database
 * template without starting PGlite for it.
 */
import fs from 'node:fs';
import path from 'node:path';

const BLOCK = 512;

const text = (tar: Uint8Array, at: number, length: number) => {
  const field = tar.subarray(at, at + length);
  const end = field.indexOf(0);
  return Buffer.from(end < 0 ? field : field.subarray(0, end)).toString('utf8');
};
const octal = (tar: Uint8Array, at: number, length: number) => parseInt(text(tar, at, length).trim() || '0', 8);

/** Every header's checksum: the sum of its bytes with the checksum field counted as spaces. */
function checksumOk(tar: Uint8Array, at: number) {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : tar[at + i]!;
  return sum === octal(tar, at + 148, 8);
}

/** Extracts the tar into `dir` (made if missing); throws on a damaged or cut-off tar, or an entry outside `dir`. */
export function extractTar(tar: Uint8Array, dir: string) {
  const root = path.resolve(dir);
  fs.mkdirSync(root, { recursive: true });
  let at = 0;
  for (;;) {
    if (at + BLOCK > tar.length) throw new Error('the tar ends without its end marker');
    if (tar.subarray(at, at + BLOCK).every((b) => b === 0)) return;
    if (!checksumOk(tar, at)) throw new Error(`the tar's header at byte ${at} is damaged`);
    const prefix = text(tar, at + 345, 155);
    const name = (prefix ? `${prefix}/` : '') + text(tar, at + 0, 100);
    const size = octal(tar, at + 124, 12);
    const type = String.fromCharCode(tar[at + 156]!);
    const target = path.resolve(root, `.${path.posix.sep}${name}`);
    if (target !== root && !target.startsWith(root + path.sep)) throw new Error(`the tar's entry ${name} is outside the data dir`);
    const data = at + BLOCK;
    if (type === '5') fs.mkdirSync(target, { recursive: true });
    else if (type === '0' || type === '\0') {
      if (data + size > tar.length) throw new Error(`the tar ends inside ${name}`);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, tar.subarray(data, data + size));
    } else throw new Error(`the tar's entry ${name} is of a kind a data dir does not hold (${type})`);
    at = data + Math.ceil(size / BLOCK) * BLOCK;
  }
}
