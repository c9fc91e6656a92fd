import { SEVERITIES, type ContainerScan } from '@gantry/contracts';

/**
 * Container scanners a `docker-push` step can run on the image it built (CONTAINER_SCANNER): their
 * JSON output becomes the step's `reports.containerScan`. Trivy (`trivy image --input {archive}
 * --format json`) and Grype (`grype oci-archive:{archive} -o json`) are recognised by their output.
 */
type Severity = (typeof SEVERITIES)[number];
export type SeverityCounts = Partial<Record<Severity, number>>;

/** Trivy's and Grype's severity words on the contract's scale (Grype's Negligible is informational; unknown is undefined). */
function severityOf(word: unknown): Severity {
  const w = String(word ?? '')
    .trim()
    .toUpperCase();
  if (w === 'CRITICAL' || w === 'HIGH' || w === 'MEDIUM' || w === 'LOW') return w;
  if (w === 'NEGLIGIBLE' || w === 'INFO' || w === 'INFORMATIONAL') return 'INFORMATIONAL';
  return 'UNDEFINED';
}

function count(severities: unknown[]): SeverityCounts {
  const counts: SeverityCounts = {};
  for (const s of severities) {
    const sev = severityOf(s);
    counts[sev] = (counts[sev] ?? 0) + 1;
  }
  return counts;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Trivy JSON (schema 2): `Results[].Vulnerabilities[].Severity`. */
export function parseTrivy(json: unknown): SeverityCounts {
  if (!isObject(json) || !('Results' in json || 'SchemaVersion' in json)) throw new Error('not Trivy JSON output');
  return count(
    list(json.Results)
      .flatMap((r) => (isObject(r) ? list(r.Vulnerabilities) : []))
      .map((v) => (isObject(v) ? v.Severity : undefined)),
  );
}

/** Grype JSON: `matches[].vulnerability.severity`. */
export function parseGrype(json: unknown): SeverityCounts {
  if (!isObject(json) || !Array.isArray(json.matches)) throw new Error('not Grype JSON output');
  return count(json.matches.map((m) => (isObject(m) && isObject(m.vulnerability) ? m.vulnerability.severity : undefined)));
}

/** Which scanner wrote this output, and its counts; throws when it is neither. */
export function parseScannerOutput(text: string): { scanner: 'trivy' | 'grype'; severityCounts: SeverityCounts } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error('the container scanner did not print JSON');
  }
  if (isObject(json) && Array.isArray(json.matches)) return { scanner: 'grype', severityCounts: parseGrype(json) };
  if (isObject(json) && ('Results' in json || 'SchemaVersion' in json)) return { scanner: 'trivy', severityCounts: parseTrivy(json) };
  throw new Error('the container scanner printed JSON that is neither Trivy nor Grype output');
}

/** `one line, as many findings as there are`: the status description of a finished scan. */
export function describeCounts(counts: SeverityCounts): string {
  const parts = SEVERITIES.filter((s) => counts[s]).map((s) => `${counts[s]} ${s.toLowerCase()}`);
  return parts.length ? `Found ${parts.join(', ')}` : 'No vulnerabilities found';
}

/** The scan report of an image: COMPLETE with the counts, or FAILED with why. */
export function containerScanReport(o: { imageName: string; imageTag: string; scanner: string; output?: string; error?: string }): ContainerScan {
  if (o.error !== undefined)
    return { imageName: o.imageName, imageTag: o.imageTag, status: 'FAILED', statusDescription: o.error, severityCounts: {}, scanner: o.scanner };
  try {
    const parsed = parseScannerOutput(o.output ?? '');
    return {
      imageName: o.imageName,
      imageTag: o.imageTag,
      status: 'COMPLETE',
      statusDescription: describeCounts(parsed.severityCounts),
      severityCounts: parsed.severityCounts,
      scanner: parsed.scanner,
    };
  } catch (err) {
    return {
      imageName: o.imageName,
      imageTag: o.imageTag,
      status: 'FAILED',
      statusDescription: (err as Error).message,
      severityCounts: {},
      scanner: o.scanner,
    };
  }
}

/**
 * The scanner command of CONTAINER_SCANNER, split on spaces (no shell), `{archive}` replaced by the
 * OCI archive of the image. Its first word names the scanner in reports.
 */
export function scannerCommand(template: string, archive: string): { command: string; args: string[]; name: string } {
  const words = template
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.replaceAll('{archive}', archive));
  if (!words.length) throw new Error('CONTAINER_SCANNER is empty');
  const [command, ...args] = words as [string, ...string[]];
  return { command, args, name: command.split('/').pop()! };
}
