import { PRODUCT_NAME } from '../../common/product';
import type { MailMessage } from './mail-message';

/**
 * Sent instead of an error when someone registers with an address that has an account: only the
 * owner of the address learns that it is taken, and how to get back in.
 */
export function accountExistsMail(options: { to: string; appOrigin: string }): MailMessage {
  const login = `${options.appOrigin}/login`;
  return {
    to: options.to,
    subject: 'You already have an account',
    text: [
      'Hello,',
      '',
      'Someone (perhaps you) tried to register a new account with this email address, which already has one.',
      `Log in here instead: ${login}`,
      '',
      'If it was not you, you can ignore this message; your account has not changed.',
      '',
      `The ${PRODUCT_NAME} team`,
    ].join('\n'),
    html:
      `<p>Hello,</p>` +
      `<p>Someone (perhaps you) tried to register a new account with this email address, which already has one.</p>` +
      `<p>Log in here instead: <a href="${login}">${login}</a></p>` +
      `<p>If it was not you, you can ignore this message; your account has not changed.</p>` +
      `<p>The ${PRODUCT_NAME} team</p>`,
  };
}
