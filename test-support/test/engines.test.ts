import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// The README promises these Node versions; `npm ci` warns (EBADENGINE) for any locked package that refuses one.
const root = fileURLToPath(new URL('../..', import.meta.url));
const lock = JSON.parse(readFileSync(`${root}/package-lock.json`, 'utf8')) as { packages: Record<string, { engines?: { node?: string } | string[] }> };
const rootEngines = (JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { engines: { node: string } }).engines.node;
const promised = ['20.19.0', '22.13.0'];

describe('Node versions the README names', () => {
  it('are the ones package.json declares', () => {
    for (const version of promised) expect(semver.satisfies(version, rootEngines), version).toBe(true);
    expect(semver.satisfies(process.version, rootEngines), `this machine runs ${process.version}`).toBe(true);
  });

  it('are accepted by every locked package', () => {
    const refusing = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
      if (!path || !range) return [];
      const refused = promised.filter((version) => !semver.satisfies(version, range));
      return refused.length > 0 ? [`${path} wants node ${range} (refuses ${refused.join(', ')})`] : [];
    });
    expect(refusing).toEqual([]);
  });
});
