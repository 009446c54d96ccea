import { bodyTemplateError, iterationKeys, parseRefreshInterval, streamChoices } from './requestSettings';

describe('parseRefreshInterval', () => {
  it('reads whole minutes from 0 up, empty meaning 0', () => {
    expect(parseRefreshInterval('15')).toEqual({ value: 15 });
    expect(parseRefreshInterval('')).toEqual({ value: 0 });
  });

  it('refuses negative and fractional values', () => {
    expect(parseRefreshInterval('-1').error).toBeDefined();
    expect(parseRefreshInterval('1.5').error).toBeDefined();
    expect(parseRefreshInterval('abc').error).toBeDefined();
  });
});

describe('bodyTemplateError', () => {
  it('requires JSON only when POST is chosen', () => {
    expect(bodyTemplateError('GET', '{oops')).toBeUndefined();
    expect(bodyTemplateError('POST', '{oops')).toBeDefined();
    expect(bodyTemplateError('POST', '{"q": "{{query}}"}')).toBeUndefined();
  });
});

describe('iterationKeys', () => {
  it('lists the dotted keys whose values are arrays', () => {
    expect(iterationKeys({ city: ['Berlin', 'Paris'], range: { days: [1, 2] }, unit: 'metric' })).toEqual([
      'city',
      'range.days',
    ]);
  });
});

describe('streamChoices', () => {
  it('offers no choice for a spec with one operation or none', () => {
    expect(streamChoices(null)).toEqual([]);
    expect(streamChoices({ operations: [{ id: 'a' }] })).toEqual([]);
  });

  it('lists every operation, the first one as the default (empty id)', () => {
    expect(streamChoices({ operations: [{ id: 'repos', name: 'Repositories' }, { id: 'issues' }] })).toEqual([
      { id: '', label: 'Repositories (repos)' },
      { id: 'issues', label: 'issues' },
    ]);
  });
});
