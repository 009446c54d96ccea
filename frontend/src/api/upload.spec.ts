import { uploadPercent } from './upload';

describe('uploadPercent', () => {
  it('rounds to whole percent within 0..100', () => {
    expect(uploadPercent(1, 3)).toBe(33);
    expect(uploadPercent(5, 4)).toBe(100);
  });

  it('is 0 while the total is unknown', () => {
    expect(uploadPercent(10, 0)).toBe(0);
  });
});
