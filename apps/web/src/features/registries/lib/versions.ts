import type { ImageTag } from '@gantry/contracts';

/** Spec §9: hashes are shown as their first 7 characters — the commit the image was built from, else the manifest digest. */
export function shortDigest(tag: Pick<ImageTag, 'digest' | 'commit'>): string {
  if (tag.commit?.sha) return tag.commit.sha.slice(0, 7);
  if (tag.digest) return tag.digest.replace(/^[a-z0-9]+:/i, '').slice(0, 7);
  return '';
}
