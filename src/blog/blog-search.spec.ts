import { containsPattern, excerptOf, prefixTsQuery } from './blog-search';

describe('prefixTsQuery', () => {
  it('turns every word into a lower-case prefix match, all required', () => {
    expect(prefixTsQuery('Power BI')).toBe('power:* & bi:*');
  });

  it('keeps only letters and digits, so no query operator can be injected', () => {
    expect(prefixTsQuery("a & !b | c:* <-> 'd' (e)")).toBe('a:* & b:* & c:* & d:* & e:*');
    expect(prefixTsQuery('Überblick 2026')).toBe('überblick:* & 2026:*');
  });

  it('answers undefined when nothing searchable is left', () => {
    expect(prefixTsQuery('  !!! ')).toBeUndefined();
  });
});

describe('containsPattern', () => {
  it('escapes LIKE wildcards', () => {
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});

describe('excerptOf', () => {
  it('decodes entities, collapses white space and cuts at a word boundary', () => {
    expect(excerptOf('  Tom &amp; Jerry\n  meet  ')).toBe('Tom & Jerry meet');
    expect(excerptOf('one two three four five', 12)).toBe('one two…');
  });
});
