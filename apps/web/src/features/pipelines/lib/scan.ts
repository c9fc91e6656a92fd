import type { BuildStep } from '@gantry/contracts';

export type ContainerScan = {
  imageName?: string;
  imageTag?: string;
  status?: string;
  statusDescription?: string;
  severityCounts?: Record<string, number>;
};

export type ScanSummary = { text: string; tone: 'ok' | 'issues' | 'failed' };

/** A step's `reports.containerScan`, or null when no scanner ran (then no scan badge is shown, spec §4). */
export const containerScanOf = (step: Pick<BuildStep, 'reports'>): ContainerScan | null => {
  const scan = step.reports?.containerScan;
  return scan && typeof scan === 'object' && !Array.isArray(scan) ? (scan as ContainerScan) : null;
};

/**
 * The scan summary of a step card (spec §4): a FAILED scan shows its description ('Scan failed');
 * otherwise the sum of the severity counts, '{n} security issues', or 'No security issues'.
 */
export function containerScanSummary(scan: ContainerScan): ScanSummary {
  if (scan.status === 'FAILED') return { text: scan.statusDescription || 'Scan failed', tone: 'failed' };
  const n = Object.values(scan.severityCounts ?? {}).reduce((sum, c) => sum + (Number(c) || 0), 0);
  return n > 0 ? { text: `${n} security issues`, tone: 'issues' } : { text: 'No security issues', tone: 'ok' };
}

/** The scan badge of a step card: only when the step has a `reports.containerScan` (a scanner ran). */
export function stepScanBadge(step: Pick<BuildStep, 'reports'>): ScanSummary | null {
  const scan = containerScanOf(step);
  return scan ? containerScanSummary(scan) : null;
}

/** What a docker-push step records (`reports.image`): the pushed reference and its digest. */
export type PushedImage = { reference: string; digest: string; registry: string; repository: string; tag: string };

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** A step's `reports.image`, or null when it pushed no image. */
export function pushedImageOf(step: Pick<BuildStep, 'reports'>): PushedImage | null {
  const image = step.reports?.image;
  if (!image || typeof image !== 'object' || Array.isArray(image)) return null;
  const o = image as Record<string, unknown>;
  const reference = str(o.reference);
  if (!reference) return null;
  return { reference, digest: str(o.digest), registry: str(o.registry), repository: str(o.repository), tag: str(o.tag) };
}

/** A commit-like tag (hex, 8+ chars) shown as its 7 first characters (spec delivery §9); other tags as they are. */
export const shortTag = (tag: string) => (/^[0-9a-f]{8,}$/i.test(tag) ? tag.slice(0, 7) : tag);

/** A digest shown as its algorithm and 7 characters: sha256:1a2b3c4 (spec delivery §9). */
export function shortDigest(digest: string): string {
  const i = digest.indexOf(':');
  return i < 0 ? digest.slice(0, 7) : `${digest.slice(0, i)}:${digest.slice(i + 1, i + 8)}`;
}

/**
 * The pushed reference as a step card shows it: registry/repository:tag with a commit tag cut to 7
 * characters (the copy button copies the full `reference`).
 */
export function shortReference(image: PushedImage): string {
  const suffix = `:${image.tag}`;
  const base = image.tag && image.reference.endsWith(suffix) ? image.reference.slice(0, -suffix.length) : image.reference;
  return image.tag && base !== image.reference ? `${base}:${shortTag(image.tag)}` : image.reference;
}

/** shortReference split for two lines: the registry host (empty when there is none) and `repository:tag`. */
export function referenceParts(image: PushedImage): { host: string; name: string } {
  const short = shortReference(image);
  const slash = short.indexOf('/');
  return slash < 0 ? { host: '', name: short } : { host: short.slice(0, slash), name: short.slice(slash + 1) };
}
