import type { MailMessage } from '../mail/mail-message';

export const LOGIN_UNLOCK_MAIL_SUBJECT = 'Sign-in to your account was locked';

/** The e-mail with a single-use link to the SPA route /unlock-login?token=… */
export function loginUnlockMail(options: {
  to: string;
  name: string;
  appOrigin: string;
  token: string;
}): MailMessage {
  const link = `${options.appOrigin}/unlock-login?token=${options.token}`;
  return {
    to: options.to,
    subject: LOGIN_UNLOCK_MAIL_SUBJECT,
    text: [
      `Hello ${options.name},`,
      '',
      'There were too many failed attempts to sign in to your account, so we stopped sign-ins from',
      'new browsers for a while. Browsers you have signed in with before still work.',
      '',
      'To sign in from another browser now, open this link in it (the link works once, within 1 hour):',
      link,
      '',
      'If the failed attempts were not yours, someone may be guessing your password: consider',
      'changing it, and turning on two-factor sign-in on your Account page.',
    ].join('\n'),
  };
}
