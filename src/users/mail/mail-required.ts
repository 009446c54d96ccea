import type { AppConfig } from '../../config/app-config';

/**
 * In production without SMTP_URL nobody could ever verify a new account, so registration is
 * refused with this message (and the start says so in the log) instead of creating accounts that
 * can never log in. Outside production the dev outbox delivers the links.
 */
export const REGISTRATION_NEEDS_MAIL_MESSAGE =
  'Registration is not possible yet: this site cannot send e-mail. Please try again later.';

export const NO_MAIL_IN_PRODUCTION_LOG =
  'No SMTP_URL set in production: registration is refused until SMTP_URL is set (nobody could verify an account)';

export function registrationNeedsMail(config: AppConfig): boolean {
  return config.isProduction && !config.smtpUrl;
}
