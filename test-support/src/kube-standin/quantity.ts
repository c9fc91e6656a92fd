/** Kubernetes resource quantities ("250m", "1.5", "128Mi", "1G") as numbers: CPU in cores, memory in bytes. */

const SUFFIX: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

export function parseQuantity(q: string | number | undefined): number {
  if (q === undefined) return 0;
  if (typeof q === 'number') return q;
  const m = /^([0-9.]+)(n|u|m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/.exec(q.trim());
  if (!m) throw new Error(`not a quantity: ${q}`);
  return Number(m[1]) * SUFFIX[m[2] ?? ''];
}

/** CPU as metrics-server writes it (nanocores). */
export const formatNanoCores = (cores: number) => `${Math.round(cores * 1e9)}n`;
/** Memory as metrics-server writes it (KiB). */
export const formatKi = (bytes: number) => `${Math.round(bytes / 1024)}Ki`;
