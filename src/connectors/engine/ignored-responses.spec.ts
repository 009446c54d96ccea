import { ignoredWarning } from './ignored-responses';

describe('ignoredWarning', () => {
  it('says nothing when no answer was ignored', () => {
    expect(ignoredWarning([])).toBeNull();
  });

  it('names the partition and the status of one ignored answer', () => {
    expect(ignoredWarning([{ status: 404, partition: { city: 'Atlantis' } }])).toBe(
      'Ignored 1 response (HTTP 404) for city=Atlantis',
    );
  });

  it('leaves out "for" when the run has no partitions', () => {
    expect(ignoredWarning([{ status: 410, partition: {} }])).toBe('Ignored 1 response (HTTP 410)');
  });

  it('lists each status once and every value of a partition', () => {
    expect(
      ignoredWarning([
        { status: 404, partition: { city: 'Atlantis', year: 2020 } },
        { status: 204, partition: { city: 'Mu', year: 2020 } },
        { status: 404, partition: { city: 'Mu', year: 2020 } },
      ]),
    ).toBe('Ignored 3 responses (HTTP 204, 404) for city=Atlantis year=2020, city=Mu year=2020');
  });

  it('names five partitions, counts the rest and cuts long values short', () => {
    const ignored = Array.from({ length: 8 }, (_, index) => ({
      status: 404,
      partition: { id: index === 0 ? 'x'.repeat(60) : index },
    }));
    expect(ignoredWarning(ignored)).toBe(
      `Ignored 8 responses (HTTP 404) for id=${'x'.repeat(39)}…, id=1, id=2, id=3, id=4 and 3 more`,
    );
  });
});
