import { ROUTES } from './routes';

describe('route table', () => {
  const paths = ROUTES.map((route) => route.path);

  it('wires every screen of the product plus /use-cases and a catch-all', () => {
    expect(paths).toEqual(
      expect.arrayContaining([
        '/',
        '/about',
        '/account',
        '/blog',
        '/blog/new',
        '/blog/:slug',
        '/connector_profile/:id',
        '/dataset_profile/:id',
        '/contact',
        '/dataapps',
        '/datastore',
        '/documentation',
        '/imprint',
        '/manage',
        '/query',
        '/terms',
        '/upload',
        '/login',
        '/register',
        '/forgot-password',
        '/reset-password',
        '/unlock-login',
        '/connector-setup/:id',
        '/verify-email/:token',
        '/use-cases',
        '*',
      ]),
    );
  });

  it('guards exactly /account, organisations, invitations, /query, /upload and /connector-setup/:id by login (not /manage, not /blog/new)', () => {
    expect(ROUTES.filter((route) => route.guarded).map((route) => route.path)).toEqual([
      '/account',
      '/organisations',
      '/organisations/:id',
      '/invitations',
      '/query',
      '/upload',
      '/connector-setup/:id',
    ]);
  });

  it('leaves /api-documentation to the server', () => {
    expect(paths).not.toContain('/api-documentation');
  });
});
