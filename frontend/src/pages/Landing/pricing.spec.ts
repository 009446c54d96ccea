import { formatEuro, ON_DEMAND_FEE_EUR, PRICING_PLANS, savingPercent } from './pricing';

describe('landing pricing', () => {
  it('charges an on-demand fee of €30 per test purchase', () => {
    expect(ON_DEMAND_FEE_EUR).toBe(30);
    expect(PRICING_PLANS.find((plan) => plan.id === 'on-demand')?.feeEur).toBe(30);
  });

  it('prices the 50-pack at €25 each, a 17% saving', () => {
    const pack = PRICING_PLANS.find((plan) => plan.id === 'pack-50')!;
    expect(pack.feeEur).toBe(25);
    expect(savingPercent(pack.feeEur!)).toBe(17);
  });

  it('prices the 100-pack at €22 each, a 27% saving', () => {
    const pack = PRICING_PLANS.find((plan) => plan.id === 'pack-100')!;
    expect(pack.feeEur).toBe(22);
    expect(savingPercent(pack.feeEur!)).toBe(27);
  });

  it('offers a corporate plan paid by invoice without a fixed fee', () => {
    const corporate = PRICING_PLANS.find((plan) => plan.id === 'corporate')!;
    expect(corporate.feeEur).toBeUndefined();
    expect(corporate.note).toMatch(/invoice/);
  });

  it('shows no saving for the base fee itself or a higher fee', () => {
    expect(savingPercent(30)).toBe(0);
    expect(savingPercent(35)).toBe(0);
  });

  it('formats whole euros without decimals and others with two', () => {
    expect(formatEuro(30)).toBe('€30');
    expect(formatEuro(22.5)).toBe('€22.50');
  });
});
