import type { MailMessage } from '../users/mail/mail-message';
import type { OrganisationRole } from './organisation-role';

/** The invitation with a link to the SPA route /invitations?token=…, where it is accepted or declined. */
export function organisationInvitationMail(options: {
  to: string;
  inviterName: string;
  organisationName: string;
  role: OrganisationRole;
  appOrigin: string;
  token: string;
  lifetimeDays: number;
}): MailMessage {
  const link = `${options.appOrigin}/invitations?token=${options.token}`;
  return {
    to: options.to,
    subject: `Join ${options.organisationName}`,
    text: [
      'Hello,',
      '',
      `${options.inviterName} invites you to join the organisation "${options.organisationName}" as ${options.role}.`,
      `Accept or decline here (the link works within ${options.lifetimeDays} days):`,
      link,
      '',
      'Log in with this e-mail address to answer; if you have no account yet, register with it first.',
      'If you do not know the sender, you can ignore this message.',
    ].join('\n'),
  };
}
