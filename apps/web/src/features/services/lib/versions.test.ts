import { describe, expect, it } from 'vitest';
import type { ImageTag } from '@gantry/contracts';
import { nextVersionsOffset, shortVersion, sortVersions } from './versions';

const tag = (name: string, date: string | null): ImageTag => ({ name, date, digest: null, commit: null });
const page = (n: number, lastElementCursor: number) => ({ tags: Array.from({ length: n }, (_, i) => tag(`v${i}`, null)), lastElementCursor });

describe('version paging (spec §4: offset 0, limit 10, advance only while a full page returns, -1 = no more)', () => {
  it('advances to the cursor after a full page', () => {
    expect(nextVersionsOffset(page(10, 10), 0)).toBe(10);
    expect(nextVersionsOffset(page(10, 20), 10)).toBe(20);
  });
  it('stops on -1 even after a full page', () => expect(nextVersionsOffset(page(10, -1), 0)).toBeUndefined());
  it('stops after a short page whatever the cursor says', () => {
    expect(nextVersionsOffset(page(3, 13), 10)).toBeUndefined();
    expect(nextVersionsOffset(page(0, 0), 0)).toBeUndefined();
  });
  it('never goes backwards: a cursor not past the offset advances by the page', () => expect(nextVersionsOffset(page(10, 0), 0)).toBe(10));
});

describe('version order (spec §4: latest first, then date descending)', () => {
  it('puts latest first, newest next, undated last, and counts a repeated tag once', () => {
    const sorted = sortVersions([
      tag('1.0.0', '2026-01-01T00:00:00Z'),
      tag('nodate', null),
      tag('2.0.0', '2026-03-01T00:00:00Z'),
      tag('latest', '2026-02-01T00:00:00Z'),
      tag('1.5.0', '2026-02-15T00:00:00Z'),
      tag('2.0.0', '2026-03-01T00:00:00Z'),
    ]);
    expect(sorted.map((t) => t.name)).toEqual(['latest', '2.0.0', '1.5.0', '1.0.0', 'nodate']);
  });
  it('cuts versions to 6 characters in the cluster view (spec §9)', () => {
    expect(shortVersion('3f9a2c7d1e')).toBe('3f9a2c');
    expect(shortVersion(null)).toBe('');
  });
});
