import { findLicence, normaliseLicence } from './licences';

describe('licences by SPDX id', () => {
  it('stores a listed licence as its SPDX id, whatever spelling, title or address the owner used', () => {
    expect(normaliseLicence('CC BY 4.0')).toBe('CC-BY-4.0');
    expect(normaliseLicence(' cc-by-sa-4.0 ')).toBe('CC-BY-SA-4.0');
    expect(normaliseLicence('Open Government Licence v3.0')).toBe('OGL-UK-3.0');
    expect(normaliseLicence('http://creativecommons.org/publicdomain/zero/1.0')).toBe('CC0-1.0');
    expect(normaliseLicence('ODbL-1.0')).toBe('ODbL-1.0');
  });

  it('keeps any other wording as given ("other"), and an empty licence empty', () => {
    expect(normaliseLicence('Internal use only')).toBe('Internal use only');
    expect(normaliseLicence('https://example.com/terms')).toBe('https://example.com/terms');
    expect(normaliseLicence('CC BY 3.0')).toBe('CC BY 3.0');
    expect(normaliseLicence('  ')).toBe('');
    expect(findLicence('')).toBeUndefined();
  });

  it('gives the address of a listed licence', () => {
    expect(findLicence('MIT')?.url).toBe('https://opensource.org/licenses/MIT');
  });
});
