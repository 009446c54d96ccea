import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql';
import type { LiveView } from './live-view';

/** A dataset about to leave the catalogue, inside the removal's transaction (before its row goes). */
export type DatasetRemovalListener = (
  sql: Sql,
  dataset: { id: string; title: string; ownerId: string | null },
  outcome: 'deleted' | 'archived',
) => Promise<void>;

/** The `live` part of a dataset's detail; `owner` also gets what only the owner may read. */
export type LiveDescriber = (assetId: string, owner: boolean) => Promise<LiveView | null>;

/**
 * Where a module that loads datasets from elsewhere (live products) plugs into the datasets
 * module without it depending on that module: it describes the freshness of a listing and hears
 * of a dataset's removal.
 */
@Injectable()
export class DatasetHooks {
  private readonly removalListeners: DatasetRemovalListener[] = [];
  private describer?: LiveDescriber;

  onRemoving(listener: DatasetRemovalListener): void {
    this.removalListeners.push(listener);
  }

  describeLiveWith(describer: LiveDescriber): void {
    this.describer = describer;
  }

  async removing(
    sql: Sql,
    dataset: { id: string; title: string; ownerId: string | null },
    outcome: 'deleted' | 'archived',
  ): Promise<void> {
    for (const listener of this.removalListeners) await listener(sql, dataset, outcome);
  }

  async live(assetId: string, owner: boolean): Promise<LiveView | null> {
    return this.describer ? this.describer(assetId, owner) : null;
  }
}
