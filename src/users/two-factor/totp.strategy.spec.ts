import { generate } from 'otplib';
import { TotpStrategy } from './totp.strategy';

describe('TotpStrategy', () => {
  const strategy = new TotpStrategy();

  it('accepts the current code of the secret and answers its time step', async () => {
    const secret = strategy.newSecret();
    const timeStep = await strategy.verify(secret, await generate({ secret }));
    expect(timeStep).toBe(Math.floor(Date.now() / 1000 / 30));
  });

  it('refuses a code of another secret, and text that is no code', async () => {
    const secret = strategy.newSecret();
    const otherCode = await generate({ secret: strategy.newSecret() });
    const ownCode = await generate({ secret });
    // One in a million codes of two secrets agree; then the test compares the same code.
    if (otherCode !== ownCode) expect(await strategy.verify(secret, otherCode)).toBeUndefined();
    expect(await strategy.verify(secret, 'abcdef')).toBeUndefined();
  });

  it('refuses a code whose time step was already used', async () => {
    const secret = strategy.newSecret();
    const code = await generate({ secret });
    const timeStep = await strategy.verify(secret, code);
    expect(await strategy.verify(secret, code, timeStep)).toBeUndefined();
  });

  it('puts issuer, account and secret into the provisioning URI', () => {
    const uri = strategy.provisioningUri('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 'someone@example.test');
    expect(uri).toMatch(/^otpauth:\/\/totp\//);
    expect(uri).toContain('secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    expect(decodeURIComponent(uri)).toContain('someone@example.test');
  });
});
