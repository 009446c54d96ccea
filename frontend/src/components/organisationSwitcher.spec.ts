import type { Organisation } from '../api/organisations';
import { currentSpace, organisationPath } from './organisationSwitcher';

const acme = { id: '6f1c2a5e-0000-4000-8000-000000000001', name: 'Acme Analytics' } as Organisation;
const beta = { id: '6f1c2a5e-0000-4000-8000-000000000002', name: 'Beta Labs' } as Organisation;

describe('the header’s organisation switcher', () => {
  it('shows the organisation whose page is open, and its sub-pages', () => {
    expect(currentSpace(`/organisations/${beta.id}`, [acme, beta])).toEqual({
      id: beta.id,
      label: 'Beta Labs',
    });
    expect(currentSpace(`/organisations/${acme.id}/anything`, [acme, beta])).toEqual({
      id: acme.id,
      label: 'Acme Analytics',
    });
  });

  it('shows Personal elsewhere, on the list of organisations and on one the user is not in', () => {
    expect(currentSpace('/manage', [acme])).toEqual({ id: null, label: 'Personal' });
    expect(currentSpace('/organisations', [acme])).toEqual({ id: null, label: 'Personal' });
    expect(currentSpace(`/organisations/${beta.id}`, [acme])).toEqual({ id: null, label: 'Personal' });
    expect(currentSpace(`/organisations/${acme.id}`, undefined)).toEqual({ id: null, label: 'Personal' });
  });

  it('opens an organisation’s page', () => {
    expect(organisationPath(acme.id)).toBe(`/organisations/${acme.id}`);
    expect(organisationPath('a/b')).toBe('/organisations/a%2Fb');
  });
});
