import type { MailMessage } from '../../platform/mail.js';

const enc = encodeURIComponent;
const layout = (title: string, lines: string[], link?: { href: string; label: string }) => ({
  text: [...lines, ...(link ? ['', `${link.label}: ${link.href}`] : []), '', '— Gantry'].join('\n'),
  html: `<div style="font-family:system-ui,sans-serif;max-width:560px;margin:auto"><h2>${title}</h2>${lines
    .map((l) => `<p>${l.replace(/</g, '&lt;')}</p>`)
    .join(
      '',
    )}${link ? `<p><a href="${link.href}" style="background:#228be6;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${link.label}</a></p>` : ''}</div>`,
});

export function verificationMail(baseUrl: string, to: string, firstName: string, code: string): MailMessage {
  const href = `${baseUrl}/account/verify/${enc(to)}/${enc(code)}`;
  return {
    to,
    subject: 'Verify your e-mail for Gantry',
    ...layout('Welcome to Gantry', [`Hi ${firstName}, please confirm your e-mail address to finish signing up.`], { href, label: 'Verify e-mail' }),
  };
}

/** To the owner of an address someone tried to sign up with: the sign-up answers as for a new account, so only the owner learns of it. */
export function signUpAttemptMail(baseUrl: string, to: string, firstName: string): MailMessage {
  return {
    to,
    subject: 'Someone tried to sign up to Gantry with your e-mail',
    ...layout(
      'You already have a Gantry account',
      [
        `Hi ${firstName || 'there'}, someone just tried to create a Gantry account with your e-mail address, which already has one.`,
        'If it was you: log in with the link below. Forgot your password? Choose "Forgot password" on the login page to reset it.',
        'If it was not you, ignore this e-mail: your account was not changed.',
      ],
      { href: `${baseUrl}/login`, label: 'Log in' },
    ),
  };
}

export function resetMail(baseUrl: string, to: string, code: string): MailMessage {
  const href = `${baseUrl}/account/reset/${enc(to)}/${enc(code)}`;
  return {
    to,
    subject: 'Reset your Gantry password',
    ...layout(
      'Password recovery',
      ['Someone asked to reset the password of your Gantry account. If it was not you, ignore this e-mail.', 'The link works once and expires in one hour.'],
      { href, label: 'Set a new password' },
    ),
  };
}

export function invitationMail(
  baseUrl: string,
  to: string,
  o: { projectName: string; inviter: string; temporaryPassword: string; token: string },
): MailMessage {
  const href = `${baseUrl}/account/set-password/${enc(to)}/${enc(o.token)}`;
  return {
    to,
    subject: `${o.inviter} invited you to ${o.projectName} on Gantry`,
    ...layout(
      'You have been invited to Gantry',
      [
        `${o.inviter} invited you to the project "${o.projectName}".`,
        `Sign in at ${baseUrl}/login with your e-mail and this temporary password: ${o.temporaryPassword}`,
        'You will be asked to choose your own password. Or complete your registration directly with the link below (valid 7 days).',
      ],
      { href, label: 'Complete registration' },
    ),
  };
}

export function addedToProjectMail(baseUrl: string, to: string, o: { projectName: string; inviter: string }): MailMessage {
  return {
    to,
    subject: `You were added to ${o.projectName} on Gantry`,
    ...layout('New project access', [`${o.inviter} added you to the project "${o.projectName}".`], { href: `${baseUrl}/projects`, label: 'Open Gantry' }),
  };
}
