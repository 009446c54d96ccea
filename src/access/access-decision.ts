/** What the caller may do with one dataset they can see. */
export interface AccessDecision {
  assetId: string;
  ownerId: string | null;
  /** The caller uploaded it. */
  owned: boolean;
  /** The caller may read all rows (owner or grant); otherwise only the sample preview. */
  hasAccess: boolean;
}
