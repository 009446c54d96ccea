import { restoredSecrets } from './backup-secrets';

const BACKUP = { SESSION_SECRET: 's'.repeat(40), ENCRYPTION_KEY: 'ab'.repeat(32) };

describe('the secrets a restore uses', () => {
  it("writes the backup's to the secrets file when the environment sets none", () => {
    expect(restoredSecrets({}, BACKUP)).toEqual({ writeSecretsFile: true });
  });

  it("keeps the environment's when they are the backup's (a hex key in any case)", () => {
    expect(
      restoredSecrets({ SESSION_SECRET: BACKUP.SESSION_SECRET, ENCRYPTION_KEY: 'AB'.repeat(32) }, BACKUP),
    ).toEqual({ writeSecretsFile: false });
  });

  it('refuses an environment key that is not the backup’s, naming it', () => {
    const answer = restoredSecrets({ ENCRYPTION_KEY: 'cd'.repeat(32) }, BACKUP);
    expect(answer).toEqual({ refusal: expect.stringContaining('ENCRYPTION_KEY in the environment differs') });
    expect(JSON.stringify(answer)).not.toContain('SESSION_SECRET');
  });
});
