import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Issue 14's budget, kept from regressing: the JavaScript a cold load of /login and of /projects
 * fetches, gzip level 9 file by file, stays ≤ 250 KB. Read from the build's manifest (`npm test`
 * builds the web before this pass): the entry's static imports plus the lazy modules the page
 * renders at once, each with its static imports. bench/web-bundle.ts measures the same in Chromium.
 */
const BUDGET_KB = 250;
const PAGES: Record<string, string[]> = {
  '/login': ['src/features/auth/pages/LoginPage.tsx'],
  '/projects': ['src/app/shell/AppLayout.tsx', 'src/features/projects/ProjectsPage.tsx'],
};

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const manifestFile = path.join(dist, '.vite/manifest.json');
const built = fs.existsSync(manifestFile);

/** The scripts a page fetches at first: the entry and `lazyModules`, each with every chunk it imports statically. */
function initialScripts(manifest: Record<string, ManifestChunk>, lazyModules: string[]): string[] {
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!entry) throw new Error('the manifest has no entry');
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build (renamed? update PAGES)`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  [entry, ...lazyModules].forEach(visit);
  return [...files];
}

describe.skipIf(!built)('initial JavaScript of the built web app (skipped without apps/web/dist: npm run build -w @gantry/web)', () => {
  const manifest = built ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>) : {};
  it.each(Object.entries(PAGES))(`%s is at most ${BUDGET_KB} KB gzip`, (_page, lazyModules) => {
    const sizes = initialScripts(manifest, lazyModules).map((file) => ({
      file,
      gzip: zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length,
    }));
    const kb = sizes.reduce((n, s) => n + s.gzip, 0) / 1024;
    const largest = sizes
      .sort((a, b) => b.gzip - a.gzip)
      .slice(0, 8)
      .map((s) => `${s.file} ${(s.gzip / 1024).toFixed(1)} KB`);
    expect(kb, `${kb.toFixed(1)} KB in ${sizes.length} scripts; largest: ${largest.join(', ')}`).toBeLessThanOrEqual(BUDGET_KB);
  });
});
