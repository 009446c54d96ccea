import { copyrightLine } from './copyright';

describe('copyrightLine', () => {
  it('names the given year and the brand', () => {
    expect(copyrightLine(2031)).toBe('© 2031 Data Marketplace. All rights reserved.');
  });

  it('uses the current year by default', () => {
    expect(copyrightLine()).toContain(String(new Date().getFullYear()));
  });
});
