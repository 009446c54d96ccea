import {
  bodyTemplateError,
  initialStreams,
  iterationKeys,
  orderedStreams,
  parseRefreshInterval,
  readsIncrementally,
  streamChoices,
} from './requestSettings';

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

  it('lists every operation by its id', () => {
    expect(streamChoices({ operations: [{ id: 'repos', name: 'Repositories' }, { id: 'issues' }] })).toEqual([
      { id: 'repos', label: 'Repositories (repos)' },
      { id: 'issues', label: 'issues' },
    ]);
  });
});

const CHOICES = [
  { id: 'repos', label: 'repos' },
  { id: 'issues', label: 'issues' },
  { id: 'members', label: 'members' },
];

describe('initialStreams', () => {
  it("checks the instance's streams that the spec still has", () => {
    expect(initialStreams(['issues', 'gone', 'repos'], CHOICES)).toEqual(['issues', 'repos']);
  });

  it("checks the spec's first stream for a new instance, none when there is no choice", () => {
    expect(initialStreams(undefined, CHOICES)).toEqual(['repos']);
    expect(initialStreams(['gone'], CHOICES)).toEqual(['repos']);
    expect(initialStreams(undefined, [])).toEqual([]);
  });
});

describe('orderedStreams', () => {
  it('keeps the stream of the instance table first while it is checked, the rest in spec order', () => {
    expect(orderedStreams(['members', 'repos', 'issues'], 'issues', CHOICES)).toEqual([
      'issues',
      'repos',
      'members',
    ]);
  });

  it('falls back to the spec order when that stream is unchecked', () => {
    expect(orderedStreams(['members', 'repos'], 'issues', CHOICES)).toEqual(['repos', 'members']);
    expect(orderedStreams([], 'issues', CHOICES)).toEqual([]);
  });
});

describe('readsIncrementally', () => {
  it('is true when any operation declares incremental, false otherwise or without a spec', () => {
    expect(readsIncrementally({ operations: [{}, { incremental: { cursor_field: 'updated_at' } }] })).toBe(
      true,
    );
    expect(readsIncrementally({ operations: [{}, {}] })).toBe(false);
    expect(readsIncrementally(null)).toBe(false);
  });
});
