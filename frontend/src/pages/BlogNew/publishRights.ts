/**
 * Who may publish, said at the top of /blog/new before anyone writes: the page has no login guard
 * (as the spec has it), so a visitor or a non-editor would otherwise learn it only at Publish.
 */
export type PublishRights = 'visitor' | 'not-editor' | 'editor' | 'unknown';

export function publishRights(
  status: 'unknown' | 'in' | 'out',
  user: { blog_editor: number | boolean } | null,
): PublishRights {
  if (status === 'unknown') return 'unknown';
  if (status === 'out' || !user) return 'visitor';
  return user.blog_editor ? 'editor' : 'not-editor';
}

export const VISITOR_NOTICE =
  'Only blog editors can publish posts. Log in with an editor account before you start writing.';
export const NOT_EDITOR_NOTICE =
  'Your account is not a blog editor, so Publish will be refused. Editor rights are given by whoever runs this site, with "npm run user:editor -- <your e-mail> on" (see the README).';
