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
      'Setting a new password signs you out everywhere and ends your API key (a new one is shown on',
      'your Account page) and every named API token, so reconnect your tools afterwards.',
      '',
      'If you did not ask for this, you can ignore this message: your password stays as it is.',
    ].join('\n'),
  };
}
