import { PRODUCT_NAME } from '../../common/product';
import type { MailMessage } from './mail-message';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The e-mail carrying a single-use verification link to the SPA route /verify-email/{token}. */
export function verificationMail(options: {
  to: string;
  name: string;
  appOrigin: string;
  token: string;
}): MailMessage {
  const link = `${options.appOrigin}/verify-email/${options.token}`;
  return {
    to: options.to,
    subject: 'Verify your email address',
    text: [
      `Hello ${options.name},`,
      '',
      'Please verify your email address by opening this link (valid for 24 hours, usable once):',
      link,
      '',
      'If you did not register, you can ignore this message.',
      '',
      `The ${PRODUCT_NAME} team`,
    ].join('\n'),
    html:
      `<p>Hello ${escapeHtml(options.name)},</p>` +
      `<p>Please verify your email address by opening this link (valid for 24 hours, usable once):</p>` +
      `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>` +
      `<p>If you did not register, you can ignore this message.</p>` +
      `<p>The ${PRODUCT_NAME} team</p>`,
  };
}
