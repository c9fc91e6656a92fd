import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { describe, it, expect, afterAll } from 'vitest';
import { stepCache } from './build-cache.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-cache-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** A build's workspace of a pipeline, its step's cache on the worker's shared cache root. */
function workspaceOf(pipelineId: string, step: string) {
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(root, 'ws-')));
  const workDir = path.join(workspace, 'src');
  const home = path.join(workspace, '.home');
  fs.mkdirSync(workDir, { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  return { workDir, cache: stepCache({ cacheRoot: path.join(root, 'cache'), pipelineId, step, workspace, workDir, home }) };
}

describe("a step's cache", () => {
  it("is its pipeline's own, whatever the step's name: '..' or '.' reaches no other pipeline's cache", async () => {
    for (const step of ['..', '.', 'build']) {
      const [mine, theirs] = [crypto.randomUUID(), crypto.randomUUID()];
      const writer = workspaceOf(mine, step);
      fs.mkdirSync(path.join(writer.workDir, 'node_modules'));
      fs.writeFileSync(path.join(writer.workDir, 'node_modules', 'planted.js'), 'planted');
      expect(await writer.cache.save()).toEqual(['node_modules']);

      const other = workspaceOf(theirs, step);
      expect(other.cache.restore(), `${step}: another pipeline's step`).toEqual([]);
      expect(fs.existsSync(path.join(other.workDir, 'node_modules'))).toBe(false);
      const again = workspaceOf(mine, step);
      expect(again.cache.restore(), `${step}: the same pipeline's next build`).toEqual(['node_modules']);
    }
  });
});
