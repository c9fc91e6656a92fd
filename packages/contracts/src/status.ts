/** Environment status colour used by the overview (account spec §4). */
export type StatusTone = 'warning' | 'success' | 'fail' | 'placeholder';

export function environmentStatusTone(status: string | null | undefined): StatusTone {
  const s = status ?? '';
  if (s.endsWith('IN_PROGRESS') && s !== 'REVIEW_IN_PROGRESS') return 'warning';
  if (s.endsWith('COMPLETE') && s !== 'DELETE_COMPLETE') return 'success';
  if (s.endsWith('FAILED')) return 'fail';
  return 'placeholder';
}

export function isNotDeployed(status: string | null | undefined): boolean {
  return !status || status === 'NOT_DEPLOYED' || status === 'DELETE_COMPLETE';
}
