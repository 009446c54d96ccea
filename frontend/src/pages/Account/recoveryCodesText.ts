/** The recovery codes as a text file to keep, with what they are for. */
export function recoveryCodesText(codes: string[], email: string): string {
  return [
    `Recovery codes for ${email}`,
    'Each code signs you in once when you cannot use your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
}
