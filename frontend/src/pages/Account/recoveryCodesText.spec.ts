import { recoveryCodesText } from './recoveryCodesText';

describe('recoveryCodesText', () => {
  it('lists every code on its own line under the account it belongs to', () => {
    const text = recoveryCodesText(['aaaa-bbbb-cccc-dddd', 'eeee-ffff-gggg-hhhh'], 'ada@example.com');
    expect(text.split('\n')[0]).toBe('Recovery codes for ada@example.com');
    expect(text.split('\n')).toEqual(expect.arrayContaining(['aaaa-bbbb-cccc-dddd', 'eeee-ffff-gggg-hhhh']));
  });
});
