/**
 * A step's name as one segment of a path: its artifacts' folder in the store (`pipelines/<pipeline>/<build>/<step>`),
 * its cache (`<cache root>/<pipeline>/<step>`), its script, its image's folders. Characters beyond word ones, '.' and
 * '-' become '_', and a name of dots alone ('.', '..') becomes underscores: as a segment it would name the folder above,
 * shared with the pipeline's other builds (artifacts) or with every project's pipelines (the cache root).
 */
export const stepSegment = (name: string) => name.replace(/[^\w.-]/g, '_').replace(/^\.+$/, (dots) => '_'.repeat(dots.length));
