import type { MailMessage } from '../../users/mail/mail-message';

/** The link to the SPA route /sso/verify-domain?token=…, which confirms the domain. */
export function domainVerificationMail(options: {
  to: string;
  domain: string;
  organisationName: string;
  appOrigin: string;
  token: string;
  lifetimeDays: number;
}): MailMessage {
  const link = `${options.appOrigin}/sso/verify-domain?token=${options.token}`;
  return {
    to: options.to,
    subject: `Confirm ${options.domain} for ${options.organisationName}`,
    text: [
      'Hello,',
      '',
      `The organisation "${options.organisationName}" wants to sign in people with addresses at ${options.domain} through its own sign-in provider.`,
      `If that is right, confirm the domain here (the link works within ${options.lifetimeDays} days):`,
      link,
      '',
      'If you do not know this organisation, ignore this message and nothing changes.',
    ].join('\n'),
  };
}
