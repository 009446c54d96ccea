import { ApiError } from '../../api/client';
import { needsSignIn, ownConnectors, refreshedMessage } from './manageRules';

describe('manage rules', () => {
  it("words the refresh alert as 'Connector refreshed with {n} rows.'", () => {
    expect(refreshedMessage(42)).toBe('Connector refreshed with 42 rows.');
    expect(refreshedMessage(undefined)).toBe('Connector refreshed with 0 rows.');
  });

  it("adds the run's warning after the row count", () => {
    expect(refreshedMessage(19, 'Ignored 1 response (HTTP 404) for city=Atlantis')).toBe(
      'Connector refreshed with 19 rows. Ignored 1 response (HTTP 404) for city=Atlantis',
    );
    expect(refreshedMessage(19, null)).toBe('Connector refreshed with 19 rows.');
  });

  it('asks for sign-in only on 401', () => {
    expect(needsSignIn(new ApiError(401, 'Please log in to continue', {}))).toBe(true);
    expect(needsSignIn(new ApiError(500, 'x', {}))).toBe(false);
  });
});

describe('ownConnectors', () => {
  it('keeps connectors flagged owned or carrying the user as owner', () => {
    const connectors = [
      { id: 'a', owned: true },
      { id: 'b', owner_user_id: 'u1' },
      { id: 'c', owner_id: 'u1' },
      { id: 'd', owner_user_id: 'u2' },
    ];
    expect(ownConnectors(connectors, 'u1').map((connector) => connector.id)).toEqual(['a', 'b', 'c']);
    expect(ownConnectors(connectors, undefined)).toEqual([]);
  });
});
