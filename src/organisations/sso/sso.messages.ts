export const ISSUER_NOT_HTTPS =
  'Issuer must be an https URL (plain http only for 127.0.0.1 or localhost, and not in production).';
export const ISSUER_NOT_PLAIN = 'Issuer must be a plain URL, without user name, query or fragment.';
export const ISSUER_PRIVATE_ADDRESS =
  'Issuer must be on a public address: private and loopback networks are not reachable from here.';
export const SSO_SETTINGS_INCOMPLETE =
  'To set up single sign-on, give the issuer, the client id and the client secret.';
export const SSO_NOT_CONFIGURED = 'Single sign-on is not set up for this organisation.';
export const SSO_REQUIRE_NEEDS_DOMAIN =
  'Verify at least one e-mail domain and set up the provider before requiring single sign-on.';
export const DOMAIN_NOT_FOUND = 'Domain not found';
export const DOMAIN_TAKEN = 'That domain is verified by another organisation.';
export const DOMAIN_ADDED_ALREADY = 'That domain has been added already.';
export const DOMAIN_ADDRESS_ELSEWHERE = 'The verification address must be at the domain itself.';
export const DOMAIN_ADDRESS_NOT_ADMINISTRATIVE =
  'The verification address must be one of the domain’s administrative addresses: admin@, administrator@, hostmaster@, postmaster@ or webmaster@.';
export const DOMAIN_LINK_INVALID = 'This verification link is invalid or has been used.';
export const DOMAIN_LINK_EXPIRED = 'This verification link has expired. Please add the domain again.';
export const SSO_UNKNOWN_ORGANISATION = 'Single sign-on is not set up for that organisation.';
export const SSO_UNKNOWN_DOMAIN = 'Single sign-on is not set up for that e-mail address.';
export const SSO_STATE_INVALID =
  'This sign-in has been used or has expired (after 10 minutes). Please start single sign-on again.';
export const SSO_PROVIDER_REFUSED = 'Your organisation’s sign-in provider did not confirm who you are.';
export const SSO_EMAIL_UNVERIFIED =
  'Your organisation’s sign-in provider did not confirm your e-mail address (email_verified).';
export const SSO_EMAIL_OUTSIDE_DOMAINS =
  'Your e-mail address is not at a domain this organisation has verified, so it cannot sign you in here.';
export const SSO_PROVIDER_UNREACHABLE =
  'Your organisation’s sign-in provider cannot be reached. Please try again later.';
export const PASSWORD_SIGN_IN_REPLACED_BY_SSO = (organisationName: string) =>
  `${organisationName} requires single sign-on (SSO) for your address. Please use “Sign in with SSO”.`;
