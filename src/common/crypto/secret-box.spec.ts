import { randomBytes } from 'node:crypto';
import { SecretBox, sha256Hex } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips a secret and never shows the plaintext in the sealed form', () => {
    const sealed = box.seal('my-api-key-123');
    expect(sealed).not.toContain('my-api-key-123');
    expect(box.open(sealed)).toBe('my-api-key-123');
  });

  it('uses a fresh nonce for every seal', () => {
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses a tampered value or another key', () => {
    const sealed = box.seal('secret');
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(tampered)).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
  });

  it('hashes look-up tokens deterministically', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
