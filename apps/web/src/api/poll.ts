/**
 * A poll interval as the spec gives it, times the factor stored under `gantry:poll-scale` (a test's
 * knob: with polls made very slow, what it sees can only have come over the socket); 1 otherwise.
 */
export function pollMs(ms: number): number {
  const scale = Number(globalThis.localStorage?.getItem('gantry:poll-scale'));
  return Number.isFinite(scale) && scale > 0 ? ms * scale : ms;
}
