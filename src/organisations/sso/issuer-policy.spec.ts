import { issuerProblem } from './issuer-policy';
import { ISSUER_NOT_HTTPS, ISSUER_NOT_PLAIN, ISSUER_PRIVATE_ADDRESS } from './sso.messages';

const development = { isProduction: false, allowPrivateNetworks: false };
const production = { isProduction: true, allowPrivateNetworks: false };
const productionWithPrivate = { isProduction: true, allowPrivateNetworks: true };

describe('issuerProblem', () => {
  it('accepts a public https issuer everywhere', () => {
    expect(issuerProblem('https://login.example.com', production)).toBeNull();
    expect(issuerProblem('https://login.example.com/tenant/42/v2.0', development)).toBeNull();
  });

  it('allows a loopback provider, over http too, outside production only', () => {
    for (const issuer of ['http://127.0.0.1:4000', 'http://localhost:4000', 'https://[::1]:4000']) {
      expect([issuer, issuerProblem(issuer, development)]).toEqual([issuer, null]);
    }
    expect(issuerProblem('http://127.0.0.1:4000', production)).toBe(ISSUER_NOT_HTTPS);
    expect(issuerProblem('https://127.0.0.1:4000', production)).toBe(ISSUER_PRIVATE_ADDRESS);
  });

  it('refuses plain http elsewhere, and other schemes', () => {
    expect(issuerProblem('http://login.example.com', development)).toBe(ISSUER_NOT_HTTPS);
    expect(issuerProblem('ftp://login.example.com', development)).toBe(ISSUER_NOT_HTTPS);
    expect(issuerProblem('not a url', development)).toBe(ISSUER_NOT_HTTPS);
  });

  it('refuses private and link-local addresses unless private networks are allowed', () => {
    for (const issuer of [
      'https://10.0.0.5',
      'https://169.254.169.254',
      'https://[fd00::1]',
      'https://192.168.1.2',
    ]) {
      expect([issuer, issuerProblem(issuer, production)]).toEqual([issuer, ISSUER_PRIVATE_ADDRESS]);
      expect([issuer, issuerProblem(issuer, productionWithPrivate)]).toEqual([issuer, null]);
    }
  });

  it('refuses credentials, a query or a fragment in the issuer', () => {
    expect(issuerProblem('https://user:pass@login.example.com', production)).toBe(ISSUER_NOT_PLAIN);
    expect(issuerProblem('https://login.example.com/?a=1', production)).toBe(ISSUER_NOT_PLAIN);
    expect(issuerProblem('https://login.example.com/#x', production)).toBe(ISSUER_NOT_PLAIN);
  });
});
