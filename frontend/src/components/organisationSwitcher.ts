import type { Organisation } from '../api/organisations';

/** Where "Personal" leads: the user's own datasets and connections. */
export const PERSONAL_HOME = '/manage';
export const PERSONAL_LABEL = 'Personal';

/**
 * Which space the header's switcher shows as current: the organisation whose page is open (when
 * the user is a member), otherwise the personal one.
 */
export function currentSpace(pathname: string, organisations: readonly Organisation[] | undefined) {
  const match = /^\/organisations\/([^/]+)/.exec(pathname);
  const organisation =
    match && organisations?.find((candidate) => candidate.id === decodeURIComponent(match[1]));
  return organisation
    ? { id: organisation.id, label: organisation.name }
    : { id: null, label: PERSONAL_LABEL };
}

export function organisationPath(id: string): string {
  return `/organisations/${encodeURIComponent(id)}`;
}
