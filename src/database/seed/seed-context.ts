/** What earlier seeders hand to later ones. */
export interface SeedContext {
  /** The verified demo user (pro user and blog editor) who owns the seeded content. */
  demoUserId: string;
}

export const DEMO_USER = {
  email: 'demo@example.com',
  password: 'demo-password-2026',
  name: 'Demo User',
} as const;
