import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db.js';
import type { Jobs } from './jobs.js';
import { createMailStore } from './mail.store.js';
import { lazy } from './lazy.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Small text files (a report's CSV), kept with the mail in the outbox. */
  attachments?: { filename: string; contentType: string; content: string }[];
}

/** Where a mail is: QUEUED for the SMTP server, SENT (or kept in the outbox when there is none), FAILED with the server's answer. */
export interface MailDelivery {
  id: string;
  to: string;
  state: 'QUEUED' | 'SENT' | 'FAILED';
  error: string | null;
}

export interface Mailer {
  /** Records the mail and queues its delivery; returns at once with the mail's id. */
  send(message: MailMessage): Promise<{ id: string }>;
  /** The delivery of mails sent before (a failed one keeps its last error while its job still retries). */
  deliveries(ids: string[]): Promise<MailDelivery[]>;
  outbox(limit?: number): Promise<{ id: string; to: string; subject: string; text: string; createdAt: string }[]>;
}

const QUEUE = 'mail.deliver';

/** Mail over SMTP_URL through a durable job; without SMTP the outbox table plus a log line is the delivery. */
export async function createMailer(opts: { db: Db; jobs: Jobs; smtpUrl?: string; from: string; log: FastifyBaseLogger }): Promise<Mailer> {
  const smtpUrl = opts.smtpUrl;
  // nodemailer is loaded with the first delivery, not at start-up (issue 14)
  const transport = smtpUrl ? lazy(async () => (await import('nodemailer')).default.createTransport(smtpUrl)) : null;
  const store = createMailStore(opts.db);
  await opts.jobs.work<{ id: string }>(QUEUE, async ({ id }) => {
    const mail = await store.get(id);
    if (!mail || mail.sentAt || !transport) return;
    try {
      await (
        await transport()
      ).sendMail({
        from: opts.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html ?? undefined,
        attachments: mail.attachments ?? undefined,
      });
      await store.update(id, { sentAt: new Date(), error: null });
    } catch (err) {
      await store.update(id, { error: String(err) });
      throw err; // pg-boss retries with backoff
    }
  });
  return {
    async send(message) {
      const row = await store.insert(message);
      if (transport) {
        await opts.jobs.send(QUEUE, { id: row.id });
      } else {
        const links = message.text.match(/https?:\/\/\S+/g) ?? [];
        opts.log.info(
          { to: message.to, subject: message.subject, links },
          `mail (no SMTP_URL, kept in outbox): "${message.subject}" to ${message.to} ${links.join(' ')}`,
        );
      }
      return { id: row.id };
    },
    async deliveries(ids) {
      return (await store.byIds(ids)).map((m) => ({
        id: m.id,
        to: m.to,
        // without SMTP the outbox is the delivery
        state: m.sentAt || !transport ? 'SENT' : m.error ? 'FAILED' : 'QUEUED',
        error: m.sentAt || !transport ? null : (m.error?.replace(/^Error: /, '') ?? null),
      }));
    },
    async outbox(limit = 100) {
      const rows = await store.newest(limit);
      return rows.map((r) => ({ id: r.id, to: r.to, subject: r.subject, text: r.text, createdAt: r.createdAt.toISOString() }));
    },
  };
}
