import crypto from 'node:crypto';

/**
 * A step's name as one segment of a path: its artifacts' folder in the store (`pipelines/<pipeline>/<build>/<step>`),
 * its cache (`<cache root>/<pipeline>/<step>`), its script, its image's folders. A name of word characters, '.' and '-'
 * is kept as it is. Any other has its other characters made '_', and a name of dots alone ('.', '..') is made underscores
 * (as a segment it would name the folder above, shared with the pipeline's other builds or every project's pipelines);
 * such a name is followed by a digest of itself, so two steps of a build whose names differ only there ('a b', 'a/b',
 * 'a_b') keep their artifacts and scripts apart.
 */
export function stepSegment(name: string) {
  const safe = name.replace(/[^\w.-]/g, '_').replace(/^\.+$/, (dots) => '_'.repeat(dots.length));
  return safe === name ? name : `${safe}~${crypto.createHash('sha256').update(name).digest('hex').slice(0, 8)}`;
}
