import { SMTPServer } from 'smtp-server';
import { simpleParser, type AddressObject } from 'mailparser';
import { freePort } from './ports.js';

/** One mail as the SMTP stand-in received and parsed it. */
export interface Mail {
  /** Envelope sender. */
  from: string;
  /** Recipients, lower-cased: the envelope's RCPT TO addresses (which include To, Cc and Bcc). */
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Every http(s) link found in the text and in the html's href attributes, in order, de-duplicated. */
  links: string[];
  /** Attached files, their content decoded as UTF-8 text. */
  attachments: { filename: string; contentType: string; content: string }[];
  /** The raw RFC 5322 message. */
  raw: string;
  receivedAt: Date;
}

export type MailMatch = string | ((mail: Mail) => boolean);

export interface SmtpStandIn {
  /** smtp://127.0.0.1:PORT, for SMTP_URL. */
  url: string;
  port: number;
  /** Every mail received so far, oldest first. */
  mails: Mail[];
  /**
   * The first mail (already received or arriving later) that matches: a recipient address
   * (case-insensitive) or a predicate. Rejects after timeoutMs with the list of what did arrive.
   */
  waitFor(match: MailMatch, timeoutMs?: number): Promise<Mail>;
  /** From now on answers RCPT TO of this address (case-insensitive) with this reply (e.g. `550 5.1.1 mailbox unavailable`), as a server refusing it. */
  refuse(address: string, reply: string): void;
  close(): Promise<void>;
}

const addressesOf = (value: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()));

/** All http(s) links of a text or html body: plain URLs and href targets, de-duplicated, in order. */
export function extractLinks(body: string): string[] {
  const found: string[] = [];
  for (const m of body.matchAll(/href\s*=\s*["']([^"']+)["']/gi)) found.push(decodeEntities(m[1]));
  for (const m of body.matchAll(/https?:\/\/[^\s"'<>)\]]+/g)) found.push(decodeEntities(m[0]).replace(/[.,;:!?]+$/, ''));
  return [...new Set(found.filter((l) => /^https?:\/\//.test(l)))];
}

const decodeEntities = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&#x2F;/gi, '/')
    .replace(/&#47;/g, '/');

/** The first link of a mail whose path contains `marker` (e.g. '/account/verify/'); throws naming the mail otherwise. */
export function linkFromMail(mail: Mail, marker: string | RegExp): string {
  const hit = mail.links.find((l) => (typeof marker === 'string' ? l.includes(marker) : marker.test(l)));
  if (!hit) throw new Error(`no link matching ${marker} in mail "${mail.subject}" to ${mail.to.join(', ')}:\n${mail.text}`);
  return hit;
}

/** The path (+ query) of a link, to open it against another base URL. */
export function pathOf(link: string): string {
  const u = new URL(link);
  return u.pathname + u.search + u.hash;
}

/** Starts a real SMTP server on a free loopback port; any auth is accepted, no TLS. */
export async function startSmtp(options: { port?: number } = {}): Promise<SmtpStandIn> {
  const mails: Mail[] = [];
  const waiters = new Set<{ test: (m: Mail) => boolean; resolve: (m: Mail) => void }>();
  const refused = new Map<string, string>();

  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    size: 25 * 1024 * 1024,
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'test' });
    },
    onRcptTo(address, _session, callback) {
      const reply = refused.get(address.address.toLowerCase());
      if (!reply) return callback();
      const m = /^(\d{3})\s*(.*)$/.exec(reply);
      callback(Object.assign(new Error(m ? m[2] : reply), { responseCode: m ? Number(m[1]) : 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', callback);
      stream.on('end', async () => {
        try {
          const raw = Buffer.concat(chunks);
          const parsed = await simpleParser(raw);
          const envelopeTo = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          const text = parsed.text ?? '';
          const html = typeof parsed.html === 'string' ? parsed.html : '';
          const mail: Mail = {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: envelopeTo.length ? envelopeTo : [...addressesOf(parsed.to), ...addressesOf(parsed.cc)],
            subject: parsed.subject ?? '',
            text,
            html,
            links: extractLinks(`${text}\n${html}`),
            attachments: parsed.attachments.map((a) => ({ filename: a.filename ?? '', contentType: a.contentType, content: a.content.toString('utf8') })),
            raw: raw.toString('utf8'),
            receivedAt: new Date(),
          };
          mails.push(mail);
          for (const w of [...waiters]) {
            if (w.test(mail)) {
              waiters.delete(w);
              w.resolve(mail);
            }
          }
          callback();
        } catch (err) {
          callback(err as Error);
        }
      });
    },
  });

  const port = options.port ?? (await freePort());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', () => {
    /* a broken client connection must not crash the test process */
  });

  const toTest = (match: MailMatch) => (typeof match === 'string' ? (m: Mail) => m.to.includes(match.toLowerCase()) : match);

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    waitFor(match, timeoutMs = 15_000) {
      const test = toTest(match);
      const already = mails.find(test);
      if (already) return Promise.resolve(already);
      return new Promise<Mail>((resolve, reject) => {
        const waiter = {
          test,
          resolve: (m: Mail) => {
            clearTimeout(timer);
            resolve(m);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          const seen = mails.map((m) => `  to ${m.to.join(', ')}: ${m.subject}`).join('\n') || '  (none)';
          reject(new Error(`no mail matching ${typeof match === 'string' ? match : 'the predicate'} within ${timeoutMs} ms; received:\n${seen}`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    refuse: (address, reply) => void refused.set(address.toLowerCase(), reply),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
