import { VERSION_PAGE, type ImageTag, type MicroserviceVersions } from '@gantry/contracts';

/**
 * Spec §4: the next page starts where the server says — only while a full page came back; -1 (or a short
 * page) means there are no more.
 */
export function nextVersionsOffset(page: MicroserviceVersions, offset: number, limit: number = VERSION_PAGE.limit): number | undefined {
  if (page.lastElementCursor === -1 || page.tags.length < limit) return undefined;
  return page.lastElementCursor > offset ? page.lastElementCursor : offset + page.tags.length;
}

/** Spec §4: 'latest' first, then by date, newest first (undated last); a tag seen on two pages counts once. */
export function sortVersions(tags: readonly ImageTag[]): ImageTag[] {
  const seen = new Map<string, ImageTag>();
  for (const t of tags) if (!seen.has(t.name)) seen.set(t.name, t);
  const time = (t: ImageTag) => (t.date ? Date.parse(t.date) : Number.NEGATIVE_INFINITY);
  return [...seen.values()].sort((a, b) => {
    if (a.name === 'latest' || b.name === 'latest') return a.name === 'latest' ? -1 : 1;
    return time(b) - time(a) || a.name.localeCompare(b.name);
  });
}

/** Spec §9: a version or image shown in the cluster service view is cut to 6 characters (the full one on hover). */
export const shortVersion = (v: string | null | undefined, chars = 6) => (v ? v.slice(0, chars) : '');
