import type { MailMessage } from '../mail/mail-message';

/** The e-mail with a single-use link to the SPA route /reset-password?token=… */
export function passwordResetMail(options: {
  to: string;
  name: string;
  appOrigin: string;
  token: string;
}): MailMessage {
  const link = `${options.appOrigin}/reset-password?token=${options.token}`;
  return {
    to: options.to,
    subject: 'Reset your password',
    text: [
      `Hello ${options.name},`,
      '',
      'Someone (hopefully you) asked to reset the password of your account. Choose a new one here',
      '(the link works once, within 1 hour):',
      link,
      '',
      'If you did not ask for this, you can ignore this message: your password stays as it is.',
    ].join('\n'),
  };
}
