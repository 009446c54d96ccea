import { redactSecrets } from './redact-secrets';

describe('redactSecrets', () => {
  it('masks a credential standing as itself and leaves words without it whole', () => {
    expect(redactSecrets('login as data failed: no data for the dataset', ['data'])).toBe(
      'login as *** failed: no *** for the ***',
    );
    expect(redactSecrets('{"message":"key k-echoed-secret is not valid"}', ['k-echoed-secret'])).toBe(
      '{"message":"key *** is not valid"}',
    );
    expect(redactSecrets('metadata, database and update stay', ['data'])).toBe('***, *** and update stay');
    expect(redactSecrets('The dataset was not found', ['pass'])).toBe('The dataset was not found');
  });

  it('masks the whole word around a credential inside it, never a part that shows where it starts', () => {
    const masked = redactSecrets('no dataset named dataset2 at /v1/dataset?q=x', ['data']);
    expect(masked).toBe('no *** named *** at /v1/***?q=x');
    expect(masked).not.toContain('set');
    expect(redactSecrets('token=abcd1234XYZ&x=1', ['abcd1234'])).toBe('token=***&x=1');
  });

  it('masks URL-encoded, form-encoded and base64 forms of a credential', () => {
    const password = 'p@ss word/1';
    const text = [
      `url=${encodeURIComponent(password)}`,
      `form=${new URLSearchParams({ p: password }).toString().slice(2)}`,
      `lower=${encodeURIComponent(password).toLowerCase()}`,
      `basic=${Buffer.from(`ann:${password}`).toString('base64')}`,
      `alone=${Buffer.from(password).toString('base64')}`,
      `urlsafe=${Buffer.from(`xy${password}`).toString('base64url')}`,
    ].join(' ');
    const masked = redactSecrets(text, [password]);
    expect(masked).toMatch(
      /^url=\*\*\* form=\*\*\* lower=\*\*\* basic=\S*\*\*\*\S* alone=\*\*\*\S* urlsafe=\S*\*\*\*/,
    );
    for (const form of [
      'ss word',
      'ss%20word',
      'ss+word',
      Buffer.from(password).toString('base64').slice(0, 12),
    ])
      expect(masked).not.toContain(form);
    expect(Buffer.from(masked.split('basic=')[1].split(' ')[0], 'base64').toString()).not.toContain(password);
  });

  it('never leaves a credential, even one a mask next to other text would form again', () => {
    expect(redactSecrets('a**** and ab***', ['b***', 'a***'])).not.toMatch(/a\*\*\*|b\*\*\*/);
    expect(redactSecrets('one secretsecret two', ['secret'])).toBe('one *** two');
  });

  it('leaves values too short to tell from ordinary text, and text without credentials, as they are', () => {
    expect(redactSecrets('an ann for anna', ['ann', ''])).toBe('an ann for anna');
    expect(redactSecrets('nothing to hide', [])).toBe('nothing to hide');
  });
});
