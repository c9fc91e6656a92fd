import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nodemailer from 'nodemailer';
import { extractLinks, linkFromMail, pathOf, startSmtp, type SmtpStandIn } from './smtp.js';

describe('SMTP stand-in', () => {
  let smtp: SmtpStandIn;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(async () => {
    await smtp.close();
  });

  it('receives and parses a mail sent by nodemailer with auth over plain SMTP', async () => {
    expect(smtp.url).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
    const url = new URL(smtp.url);
    url.username = 'anyone';
    url.password = 'whatever';
    const transport = nodemailer.createTransport(url.toString());
    const waiting = smtp.waitFor('Ann@Example.com', 5_000);
    await transport.sendMail({
      from: 'Gantry <no-reply@gantry.local>',
      to: 'ann@example.com',
      subject: 'Verify your e-mail',
      text: 'Open http://localhost:1234/account/verify/ann%40example.com/123456 to verify.',
      html: '<p><a href="http://localhost:1234/account/verify/ann%40example.com/123456">Verify</a></p>',
    });
    const mail = await waiting;
    expect(mail.to).toEqual(['ann@example.com']);
    expect(mail.from).toBe('no-reply@gantry.local');
    expect(mail.subject).toBe('Verify your e-mail');
    expect(mail.text).toContain('to verify.');
    expect(mail.html).toContain('<a href=');
    expect(mail.links).toEqual(['http://localhost:1234/account/verify/ann%40example.com/123456']);
    expect(pathOf(linkFromMail(mail, '/account/verify/'))).toBe('/account/verify/ann%40example.com/123456');
    expect(smtp.mails).toHaveLength(1);
    transport.close();
  });

  it('finds an already received mail, waits for a later one by predicate, and times out naming what arrived', async () => {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
    await expect(smtp.waitFor('ann@example.com', 100)).resolves.toMatchObject({ subject: 'Verify your e-mail' });
    const later = smtp.waitFor((m) => m.subject.startsWith('Invitation'), 5_000);
    await transport.sendMail({
      from: 'a@b.c',
      to: 'bob@example.com',
      cc: 'carol@example.com',
      subject: 'Invitation to Alpha',
      text: 'Temporary password: Xy12abcd',
    });
    const mail = await later;
    expect(mail.to.sort()).toEqual(['bob@example.com', 'carol@example.com']);
    await expect(smtp.waitFor('nobody@example.com', 200)).rejects.toThrow(/no mail matching nobody@example.com within 200 ms; received:\n.*Verify your e-mail/);
    transport.close();
  });

  it('refuses the recipients it is told to with their reply; the others of the same mail get it', async () => {
    smtp.refuse('Bounce@Example.com', '550 5.1.1 <bounce@example.com>: mailbox unavailable');
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
    const alone = { from: 'a@b.c', subject: 'Costs', text: 'Your costs' };
    await expect(transport.sendMail({ ...alone, to: 'bounce@example.com' })).rejects.toThrow(/550 5\.1\.1 <bounce@example\.com>: mailbox unavailable/);
    const info = await transport.sendMail({ ...alone, to: ['bounce@example.com', 'dave@example.com'] });
    expect(info.rejected).toEqual(['bounce@example.com']);
    expect((await smtp.waitFor('dave@example.com', 5_000)).to).toEqual(['dave@example.com']);
    transport.close();
  });

  it('extracts links from text and html bodies', () => {
    expect(extractLinks('see https://x.test/a?b=1&amp;c=2. and <a href="http://y.test/p">y</a>')).toEqual(['http://y.test/p', 'https://x.test/a?b=1&c=2']);
    expect(extractLinks('no links here')).toEqual([]);
  });
});
