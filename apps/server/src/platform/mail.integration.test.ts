import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startSmtp, type SmtpStandIn } from '@gantry/test-support';
import { createTestApp, PASSWORD, type TestApp } from '../../test/helpers.js';

let smtp: SmtpStandIn;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'Gantry <gantry@example.com>' });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('mail over a real SMTP server', () => {
  it('delivers the verification mail through the queue, with a link that verifies the account', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/ms-usermanagement/auth/sign-up',
      payload: { username: 'smtp-user@example.com', password: PASSWORD, firstName: 'Sam', lastName: 'Tp' },
    });
    expect(res.statusCode).toBe(201);
    const mail = await smtp.waitFor('smtp-user@example.com', 15_000);
    expect(mail.from).toBe('gantry@example.com');
    expect(mail.subject).toBe('Verify your e-mail for Gantry');
    const link = mail.links.find((l) => l.startsWith('http://gantry.test/account/verify/smtp-user%40example.com/'))!;
    expect(link).toBeTruthy();
    const code = decodeURIComponent(link.split('/').pop()!);
    const act = await t.app.inject({ method: 'POST', url: '/ms-usermanagement/auth/activate', payload: { username: 'smtp-user@example.com', code } });
    expect(act.statusCode).toBe(200);
    const sent = await t.app.services.mailer.outbox();
    expect(sent[0]!.to).toBe('smtp-user@example.com'); // recorded too, for the instance's own trail
  });
});
