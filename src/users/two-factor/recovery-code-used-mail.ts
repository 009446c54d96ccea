import type { MailMessage } from '../mail/mail-message';

/** Tells the owner a recovery code was used to sign in: if it was not them, they should act. */
export function recoveryCodeUsedMail(options: {
  to: string;
  name: string;
  appOrigin: string;
  left: number;
}): MailMessage {
  return {
    to: options.to,
    subject: 'A recovery code was used to sign in',
    text: [
      `Hello ${options.name},`,
      '',
      'Someone just signed in to your account with one of your two-factor recovery codes.',
      `You have ${options.left} unused recovery codes left.`,
      '',
      'If this was not you, reset your password and review your sessions at once:',
      `${options.appOrigin}/account`,
    ].join('\n'),
  };
}
