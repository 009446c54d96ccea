import { isReadableName } from './readable-name';

describe('readable table names', () => {
  it('accepts lower-case identifiers that start with a letter, up to 48 characters', () => {
    expect(isReadableName('sales_2024')).toBe(true);
    expect(isReadableName('t_2024_sales')).toBe(true);
    expect(isReadableName('a'.repeat(48))).toBe(true);
  });

  it('refuses what no readable name looks like: ids, old references, upper case, too long', () => {
    expect(isReadableName('0f8fad5b-d9cb-469f-a165-70867728950e')).toBe(false);
    expect(isReadableName('instance-0f8fad5b-d9cb-469f-a165-70867728950e')).toBe(false);
    expect(isReadableName('Dataset_0f8fad5bd9cb469fa16570867728950e')).toBe(false);
    expect(isReadableName('2024_sales')).toBe(false);
    expect(isReadableName('_sales')).toBe(false);
    expect(isReadableName('a'.repeat(49))).toBe(false);
    expect(isReadableName('')).toBe(false);
    expect(isReadableName(undefined)).toBe(false);
  });
});
