import { describeBrowser } from './describe-browser';

describe('describeBrowser', () => {
  it('names the browser, its major version and the system', () => {
    const chrome =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.7339.80 Safari/537.36';
    expect(describeBrowser(chrome)).toBe('Chrome 140 on Linux');
  });

  it('says so when there is nothing to recognise', () => {
    expect(describeBrowser('')).toBe('Unknown browser');
    expect(describeBrowser('node-superagent/3.8.3')).toBe('Unknown browser');
  });
});
