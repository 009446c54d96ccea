import { parseLsn, ReplicaFreshness } from './replica-freshness';

describe('replica freshness', () => {
  it('reads WAL positions as PostgreSQL orders them', () => {
    expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
    expect(parseLsn('1/0') > parseLsn('0/FFFFFFFF')).toBe(true);
  });

  it('is caught up to the newest primary sample the replica has replayed, and no further', () => {
    const freshness = new ReplicaFreshness();
    freshness.recordPrimary(1_000, '0/100');
    freshness.recordPrimary(2_000, '0/200');
    freshness.recordPrimary(3_000, '0/300');
    freshness.recordReplica('0/250');
    expect(freshness.caughtUpTo).toBe(2_000);
    expect(freshness.hasReplayed(0x250n)).toBe(true);
    expect(freshness.hasReplayed(0x251n)).toBe(false);
    expect(freshness.isFresh(3_500, 1_500)).toBe(true);
    expect(freshness.isFresh(3_501, 1_500)).toBe(false);
  });

  it('never vouches for a server that is not replaying, and never moves back', () => {
    const freshness = new ReplicaFreshness();
    freshness.recordPrimary(1_000, '0/100');
    freshness.recordReplica(null);
    expect(freshness.caughtUpTo).toBeUndefined();
    expect(freshness.isFresh(1_000, 10_000)).toBe(false);
    freshness.recordReplica('0/100');
    freshness.recordReplica('0/50');
    expect(freshness.caughtUpTo).toBe(1_000);
    expect(freshness.hasReplayed(0x100n)).toBe(true);
    freshness.forget();
    expect(freshness.hasReplayed(0n)).toBe(false);
  });
});
