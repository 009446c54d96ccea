import { publishRights } from './publishRights';

describe('publishRights', () => {
  it('tells visitors, non-editors and editors apart', () => {
    expect(publishRights('out', null)).toBe('visitor');
    expect(publishRights('in', { blog_editor: 0 })).toBe('not-editor');
    expect(publishRights('in', { blog_editor: 1 })).toBe('editor');
  });

  it('says nothing while the session is not known yet', () => {
    expect(publishRights('unknown', null)).toBe('unknown');
  });
});
