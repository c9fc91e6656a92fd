import type { ReportLastSend } from '@gantry/contracts';
import type { MailDelivery } from '../../platform/mail.js';
import type { SendRow } from './cost-explorer.store.js';

/**
 * What the recipients got of a send, as its report's screen shows it: the send's own outcome (preparing, failed and
 * when it is retried), then its mails' delivery (waiting for the mail server, or the server's answer for an address).
 */
export function sendOutcome(send: SendRow, mails: ReadonlyMap<string, MailDelivery>, o: { now: Date; leaseMs: number; lookbackMs: number }): ReportLastSend {
  const base = { trigger: send.trigger, at: send.startedAt.toISOString(), error: null, retryAt: null };
  if (send.status === 'RUNNING') return { ...base, status: 'SENDING' };
  if (send.status === 'FAILED') {
    const retried = send.scheduledFor.getTime() >= o.now.getTime() - o.lookbackMs;
    return { ...base, status: 'FAILED', error: send.error, retryAt: retried ? new Date(send.startedAt.getTime() + o.leaseMs).toISOString() : null };
  }
  const delivered = (send.mailIds ?? []).flatMap((id) => mails.get(id) ?? []);
  const failed = delivered.filter((m) => m.state === 'FAILED');
  if (failed.length) {
    const others = failed.length - 1;
    const more = others ? ` (and ${others} more address${others > 1 ? 'es' : ''})` : '';
    return { ...base, status: 'FAILED', error: `Not delivered to ${failed[0]!.to}${more}: ${failed[0]!.error}` };
  }
  return { ...base, status: delivered.some((m) => m.state === 'QUEUED') ? 'SENDING' : 'SENT' };
}
