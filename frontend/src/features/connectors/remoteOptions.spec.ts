import { dependencyValues, isStaleChoice, selectChoices } from './remoteOptions';

describe('options loaded from an options_endpoint', () => {
  it('takes the values of the fields a look-up depends on, by dotted path, and names the empty ones', () => {
    expect(
      dependencyValues(['country', 'area.region'], { country: 'DE', area: { region: 'north' } }),
    ).toEqual({
      values: { country: 'DE', 'area.region': 'north' },
      missing: [],
    });
    expect(dependencyValues(['country', 'area.region'], { country: '' })).toEqual({
      values: {},
      missing: ['country', 'area.region'],
    });
  });

  it('lists the loaded options as text, keeping the chosen value listed while the list loads', () => {
    expect(selectChoices([{ label: 'Berlin', value: 10 }], undefined)).toEqual([
      { label: 'Berlin', value: '10' },
    ]);
    expect(selectChoices(undefined, 'BER')).toEqual([{ label: 'BER', value: 'BER' }]);
    expect(selectChoices(undefined, undefined)).toEqual([]);
  });

  it('finds a choice the reloaded list no longer offers', () => {
    expect(isStaleChoice([{ label: 'Paris', value: 'PAR' }], 'BER')).toBe(true);
    expect(isStaleChoice([{ label: 'Berlin', value: 'BER' }], 'BER')).toBe(false);
    expect(isStaleChoice(undefined, 'BER')).toBe(false);
    expect(isStaleChoice([{ label: 'Paris', value: 'PAR' }], undefined)).toBe(false);
  });
});
