import { firstInvalidUtf8Offset, Utf8Guard } from './utf8-guard';

describe('Utf8Guard', () => {
  it('accepts characters split over chunk boundaries', () => {
    const bytes = Buffer.from('a€b😀c');
    for (let cut = 1; cut < bytes.length; cut++) {
      const guard = new Utf8Guard();
      expect(guard.check(bytes.subarray(0, cut))).toBe(-1);
      expect(guard.check(bytes.subarray(cut))).toBe(-1);
      expect(guard.finish()).toBe(-1);
    }
  });

  it('reports where the text breaks', () => {
    expect(new Utf8Guard().check(Buffer.from([0x61, 0x62, 0xc3, 0x28]))).toBe(2);
    expect(firstInvalidUtf8Offset(Buffer.from([0x61, 0xff]))).toBe(1);
  });

  it('reports a character cut off at the end', () => {
    const guard = new Utf8Guard();
    expect(guard.check(Buffer.from([0x61, 0xe2, 0x82]))).toBe(-1);
    expect(guard.finish()).toBe(0);
  });
});
