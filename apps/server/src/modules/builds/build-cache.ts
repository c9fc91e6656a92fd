import fs from 'node:fs';
import path from 'node:path';
import { removeTree } from '../../integrations/executor/workspace-files.js';
import { stepSegment } from './step-segment.js';

/**
 * What a build step with `cache: true` keeps between builds of its pipeline: the dependency folders
 * package managers fill, in the work dir and in the step's home. They are restored before the step's
 * commands run and saved again after they succeed (a failed step leaves the previous cache as it was).
 */
export const CACHED_WORK_DIR_FOLDERS = ['node_modules', 'vendor', '.gradle', '.m2'] as const;
export const CACHED_HOME_FOLDERS = ['.npm', '.m2', '.gradle', '.cache'] as const;

type Place = { from: string; label: string; kept: string };

/**
 * The cache of one step of one pipeline, on this worker's disk: `<cacheRoot>/<pipelineId>/<step>/`.
 * Folders are copied as they are, links copied as links (never followed); a cached folder that is a
 * link, or whose real path leaves the workspace, is neither saved nor restored over.
 */
export function stepCache(o: { cacheRoot: string; pipelineId: string; step: string; workspace: string; workDir: string; home: string }) {
  const dir = path.join(o.cacheRoot, o.pipelineId, stepSegment(o.step));
  const places: Place[] = [
    ...CACHED_WORK_DIR_FOLDERS.map((f) => ({ from: path.join(o.workDir, f), label: f, kept: path.join(dir, 'work', f) })),
    ...CACHED_HOME_FOLDERS.map((f) => ({ from: path.join(o.home, f), label: `~/${f}`, kept: path.join(dir, 'home', f) })),
  ];
  const insideWorkspace = (p: string) => {
    const real = fs.realpathSync(path.dirname(p));
    return real === o.workspace || real.startsWith(`${o.workspace}${path.sep}`);
  };
  const isRealDir = (p: string) => fs.lstatSync(p, { throwIfNoEntry: false })?.isDirectory() === true;

  return {
    /** Puts the kept folders back; answers what it restored. */
    restore(): string[] {
      const restored: string[] = [];
      for (const p of places) {
        if (!isRealDir(p.kept) || fs.lstatSync(p.from, { throwIfNoEntry: false })) continue;
        if (!fs.existsSync(path.dirname(p.from)) || !insideWorkspace(p.from)) continue;
        fs.cpSync(p.kept, p.from, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
        restored.push(p.label);
      }
      return restored;
    },
    /** Keeps the folders the step left (replacing what was kept); answers what it saved. */
    async save(): Promise<string[]> {
      const saved: string[] = [];
      for (const p of places) {
        if (!isRealDir(p.from) || !insideWorkspace(p.from)) continue;
        const next = `${p.kept}.next`;
        await removeTree(next);
        fs.mkdirSync(path.dirname(next), { recursive: true, mode: 0o700 });
        fs.cpSync(p.from, next, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
        await removeTree(p.kept);
        fs.renameSync(next, p.kept);
        saved.push(p.label);
      }
      return saved;
    },
  };
}

/** Forgets every step cache of a pipeline (the pipeline was deleted). */
export const removePipelineCache = (cacheRoot: string, pipelineId: string) => removeTree(path.join(cacheRoot, pipelineId));
