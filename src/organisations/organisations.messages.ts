/** Not a member, or no such organisation: the same answer, so nobody learns which exist. */
export const ORGANISATION_NOT_FOUND = 'Organisation not found';
export const MEMBER_NOT_FOUND = 'Member not found';
export const INVITATION_NOT_FOUND = 'Invitation not found';
export const SLUG_TAKEN = 'That slug is taken. Please choose another.';
export const OWNERS_AND_ADMINS_ONLY = 'Only owners and admins of this organisation may do that.';
export const OWNERS_ONLY = 'Only owners of this organisation may do that.';
export const ONLY_OWNERS_MANAGE_OWNERS = 'Only an owner may make someone an owner or change an owner’s role.';
export const LAST_OWNER =
  'You are the last owner of this organisation. Make another member an owner first, or delete the organisation.';
export const LAST_OWNER_ROLE =
  'This organisation needs at least one owner. Make another member an owner first.';
export const ALREADY_MEMBER = 'That person is a member of this organisation already.';
export const INVALID_INVITATION = 'This invitation link is invalid.';
export const INVITATION_EXPIRED = 'This invitation has expired. Please ask for a new one.';
export const INVITATION_REVOKED = 'This invitation was withdrawn.';
export const INVITATION_ANSWERED = 'This invitation has been answered already.';
export const INVITATION_OTHER_ADDRESS =
  'This invitation was sent to another e-mail address. Please log in with that address to answer it.';
export const TOO_MANY_INVITATIONS = 'Too many invitations. Please try again later.';
export const AUDIT_LOG_OWNERS_AND_ADMINS_ONLY =
  'Only owners and admins of this organisation may read or export its audit log.';
export const STILL_OWNS_DATASETS =
  'This organisation still owns datasets. Delete them first: they are its members’ work and would otherwise be lost.';
export const INVITATION_NOT_SENT = 'We could not send the invitation email. Please try again later.';
