import { categoryGradient } from './cardArt';

describe('categoryGradient', () => {
  it('gives a category the same colours every time, whatever its case or spacing', () => {
    expect(categoryGradient('Finance')).toBe(categoryGradient(' finance '));
  });

  it('tells the catalogue categories apart rather than giving every card the same art', () => {
    const categories = ['Finance', 'Science', 'Health', 'Energy', 'Marketing', 'Government', 'Technology'];
    expect(new Set(categories.map(categoryGradient)).size).toBeGreaterThanOrEqual(5);
  });
});
