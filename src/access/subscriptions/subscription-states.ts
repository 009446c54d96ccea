import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { Sql, sqlOn } from '../../database/sql';
import { NotificationsService } from '../../notifications/notifications.service';
import { subscriptionInForce } from '../access-gate.service';
import type { SubscriptionStatus } from '../entities/subscription.entity';
import { deleteGrant, insertGrant } from '../grant-rows';

/** A subscription row as state changes need it (snake_case, as read). */
export interface SubscriptionRow {
  id: string;
  user_id: string;
  asset_id: string | null;
  title: string;
  status: SubscriptionStatus;
  billing_interval: 'month' | 'year';
  trial_days: number;
  provider: string;
  provider_subscription_id: string | null;
  cancel_at_period_end: boolean;
  current_period_end: Date | null;
  past_due_since: Date | null;
  state_at: Date | null;
}

/** A subscription's state as the provider (or the buyer's cancel) reports it at `at`. */
export interface NextState {
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date | null;
  /**
   * When the provider reported it (the event's `created`); never moves state_at backwards. Null
   * for a change that is no provider state (a checkout's completion): state_at stays as it is.
   */
  at: Date | null;
  providerSubscriptionId?: string | null;
}

const SWEEP_MS = 60_000;
const DAY_MS = 24 * 60 * 60 * 1000;
const STARTING: SubscriptionStatus[] = ['pending', 'expired', 'incomplete'];

export const SUBSCRIPTION_COLUMNS = `id, user_id, asset_id, title, status, billing_interval, trial_days, provider,
  provider_subscription_id, cancel_at_period_end, current_period_end, past_due_since, state_at`;

function earliest(...moments: Array<Date | null>): Date | null {
  const set = moments.filter((moment): moment is Date => moment !== null);
  return set.length ? new Date(Math.min(...set.map((moment) => moment.getTime()))) : null;
}

/**
 * Writes subscription states and keeps the 'subscription' grant in line with them, inside the
 * caller's transaction: a grant while the subscription is in force, none after; a notice when a
 * renewal fails and when access ends. Also sweeps grants whose grace or cancelled period ran out
 * (the access gate stops honouring them at that moment already; the sweep removes the row and
 * sends the notice).
 */
@Injectable()
export class SubscriptionStates implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SubscriptionStates.name);
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly notifications: NotificationsService,
    private readonly audit: AuditService,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.schedulerEnabled) return;
    this.timer = setInterval(() => void this.endLapsed().catch(() => undefined), SWEEP_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Our subscription any of these ids names, locked for the transaction; null when none does. */
  async lock(
    sql: Sql,
    ids: { id?: string | null; providerSubscriptionId?: string | null; sessionId?: string | null },
  ): Promise<SubscriptionRow | null> {
    if (!ids.id && !ids.providerSubscriptionId && !ids.sessionId) return null;
    const { rows } = await sql<SubscriptionRow>(
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions
        WHERE id = $1::uuid OR provider_subscription_id = $2 OR checkout_session_id = $3
        ORDER BY (id = $1::uuid) DESC NULLS LAST LIMIT 1 FOR UPDATE`,
      [ids.id ?? null, ids.providerSubscriptionId ?? null, ids.sessionId ?? null],
    );
    return rows[0] ?? null;
  }

  /** Records the new state, derives until when it gives access, and brings the grant in line. */
  async apply(sql: Sql, row: SubscriptionRow, next: NextState): Promise<void> {
    const pastDueSince = next.status === 'past_due' ? (row.past_due_since ?? next.at ?? new Date()) : null;
    const graceEnds = pastDueSince ? new Date(pastDueSince.getTime() + this.graceDays * DAY_MS) : null;
    const accessUntil = earliest(graceEnds, next.cancelAtPeriodEnd ? next.currentPeriodEnd : null);
    await sql(
      `UPDATE subscriptions SET status = $2, cancel_at_period_end = $3, current_period_end = $4,
              past_due_since = $5, access_until = $6, state_at = GREATEST(state_at, $7),
              provider_subscription_id = COALESCE(provider_subscription_id, $8),
              checkout_url = CASE WHEN $2 = 'pending' THEN checkout_url END, updated_at = now()
        WHERE id = $1`,
      [
        row.id,
        next.status,
        next.cancelAtPeriodEnd,
        next.currentPeriodEnd,
        pastDueSince,
        accessUntil,
        next.at,
        next.providerSubscriptionId ?? null,
      ],
    );
    const facts = { subscriptionId: row.id, title: row.title, assetId: row.asset_id };
    if (next.status === 'past_due' && row.status !== 'past_due' && graceEnds)
      await this.notifications.subscriptionPastDue(
        sql,
        row.user_id,
        { ...facts, reason: 'unpaid' },
        graceEnds,
      );
    if (STARTING.includes(row.status) && (next.status === 'trialing' || next.status === 'active'))
      await this.audit.recordIn(
        sql,
        'subscription_started',
        { subscription_id: row.id, dataset_id: row.asset_id, provider: row.provider },
        row.user_id,
      );
    await this.sync(sql, row.id);
  }

  /**
   * Grants access while the subscription is in force, and takes the 'subscription' grant away
   * (with a notice) once neither it nor another subscription of the same buyer to the dataset is.
   */
  async sync(sql: Sql, subscriptionId: string): Promise<void> {
    const { rows } = await sql<SubscriptionRow & { in_force: boolean; other_in_force: boolean }>(
      `SELECT ${SUBSCRIPTION_COLUMNS}, ${subscriptionInForce('s')} AS in_force,
              EXISTS (SELECT 1 FROM subscriptions other WHERE other.user_id = s.user_id
                 AND other.asset_id = s.asset_id AND other.id <> s.id AND ${subscriptionInForce('other')}) AS other_in_force
         FROM subscriptions s WHERE id = $1`,
      [subscriptionId],
    );
    const row = rows[0];
    if (!row?.asset_id) return;
    if (row.in_force) return insertGrant(sql, row.user_id, row.asset_id, 'subscription');
    if (row.other_in_force || !(await deleteGrant(sql, row.user_id, row.asset_id, 'subscription'))) return;
    const reason = row.status === 'canceled' || row.cancel_at_period_end ? 'canceled' : 'unpaid';
    await this.notifications.subscriptionEnded(sql, row.user_id, {
      subscriptionId: row.id,
      title: row.title,
      assetId: row.asset_id,
      reason,
    });
    await this.audit.recordIn(
      sql,
      'subscription_ended',
      { subscription_id: row.id, dataset_id: row.asset_id, reason },
      row.user_id,
    );
    this.logger.log(`Subscription ${row.id} no longer in force (${reason}); access removed`);
  }

  /** Takes away the grants whose subscription's grace or cancelled period ran out; answers how many. */
  async endLapsed(): Promise<number> {
    const lapsed: Array<{ id: string }> = await this.dataSource.query(
      `SELECT DISTINCT s.id FROM subscriptions s
         JOIN access_grants held ON held.user_id = s.user_id AND held.asset_id = s.asset_id
          AND held.reason = 'subscription'
        WHERE NOT ${subscriptionInForce('s')}
          AND NOT EXISTS (SELECT 1 FROM subscriptions other WHERE other.user_id = s.user_id
                 AND other.asset_id = s.asset_id AND ${subscriptionInForce('other')})`,
    );
    for (const { id } of lapsed) {
      await this.dataSource.transaction(async (manager) => {
        const sql = sqlOn(manager);
        if (await this.lock(sql, { id })) await this.sync(sql, id);
      });
    }
    return lapsed.length;
  }

  private get graceDays(): number {
    return this.config.payments.subscriptionGraceDays;
  }
}
