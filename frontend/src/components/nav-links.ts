/** Public sections shown in the header (desktop bar and phone menu). */
export const HEADER_LINKS = [
  { label: 'DataStore', to: '/datastore' },
  { label: 'Data Apps', to: '/dataapps' },
  { label: 'Blog', to: '/blog' },
  { label: 'Documentation', to: '/documentation' },
] as const;

/** The links of a signed-in user's Account dropdown. */
export const ACCOUNT_LINKS = [
  { label: 'Manage Data', to: '/manage' },
  { label: 'Upload & Create', to: '/upload' },
  { label: 'Query', to: '/query' },
  { label: 'Profile', to: '/account' },
  { label: 'Organisations', to: '/organisations' },
] as const;
