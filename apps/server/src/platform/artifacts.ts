import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';

/** Where build artifacts live: a folder by default (ARTIFACT_STORE as a path); keys are relative paths. */
export interface ArtifactStore {
  put(key: string, body: Readable | Buffer | string): Promise<{ size: number }>;
  get(key: string): Promise<Readable | null>;
  removePrefix(prefix: string): Promise<void>;
}

export function createFileArtifactStore(root: string): ArtifactStore {
  const resolve = (key: string) => {
    const full = path.resolve(root, key);
    if (!full.startsWith(path.resolve(root) + path.sep)) throw new Error(`artifact key escapes the store: ${key}`);
    return full;
  };
  return {
    async put(key, body) {
      const file = resolve(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      if (typeof body === 'string' || Buffer.isBuffer(body)) await fs.promises.writeFile(file, body);
      else await pipeline(body, fs.createWriteStream(file));
      return { size: (await fs.promises.stat(file)).size };
    },
    async get(key) {
      const file = resolve(key);
      return fs.existsSync(file) ? fs.createReadStream(file) : null;
    },
    async removePrefix(prefix) {
      await fs.promises.rm(resolve(prefix), { recursive: true, force: true });
    },
  };
}

export function createArtifactStore(setting: string | undefined, dataDir: string): ArtifactStore {
  if (setting?.startsWith('s3://')) {
    throw new Error('ARTIFACT_STORE=s3://… is not supported by this Gantry version yet; use a folder path');
  }
  return createFileArtifactStore(path.resolve(setting ?? path.join(dataDir, 'artifacts')));
}
