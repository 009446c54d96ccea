import { generateRecoveryCodes, hashRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes';

describe('recovery codes', () => {
  it('generates ten different codes of four groups of four', () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
  });

  it('hashes a code the same however it is typed back, and differently from another code', () => {
    const [code, other] = generateRecoveryCodes(2);
    expect(hashRecoveryCode(` ${code.toUpperCase().replace(/-/g, ' ')} `)).toBe(hashRecoveryCode(code));
    expect(hashRecoveryCode(code)).not.toBe(hashRecoveryCode(other));
    expect(hashRecoveryCode(code)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashRecoveryCode(code)).not.toContain(code.replace(/-/g, ''));
  });
});
