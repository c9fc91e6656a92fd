/**
 * A step's name as one segment of a path: its artifacts' folder in the store (`pipelines/<pipeline>/<build>/<step>`),
 * its script, its image's folders. Characters beyond word ones, '.' and '-' become '_', and a name of dots alone
 * ('.', '..') becomes underscores: as a segment it would name its build's folder or the pipeline's, where a later
 * build's step of that name would replace this build's artifacts.
 */
export const stepSegment = (name: string) => name.replace(/[^\w.-]/g, '_').replace(/^\.+$/, (dots) => '_'.repeat(dots.length));
