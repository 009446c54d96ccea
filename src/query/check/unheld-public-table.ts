import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessGate } from '../../access/access-gate.service';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ListingLinks } from '../../listings/listing-links';
import { MissingRelation, QueryRefusal } from './query-refusal';

/** The public dataset a query named without holding it: what the answer links to. */
export interface UnheldListing {
  id: string;
  title: string;
  url: string;
}

/** A query naming a public dataset the caller does not hold: says so, and where to get it. */
export class UnheldPublicTable extends QueryRefusal {
  constructor(
    readonly listing: UnheldListing,
    position?: number,
  ) {
    super(`You don't hold ${listing.title}: get it to query it`, position);
  }
}

/**
 * Turns "does not exist" for a table of a public dataset into "You don't hold …" with a link.
 * Only what a visitor may see anyway (the gate's visible-to-anyone condition) is named: a private,
 * archived or unknown name keeps PostgreSQL's wording, so the answer reveals nothing.
 */
@Injectable()
export class UnheldPublicTables {
  private readonly links: ListingLinks;

  constructor(
    private readonly dataSource: DataSource,
    private readonly gate: AccessGate,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.links = new ListingLinks(config.appOrigin);
  }

  /** The refusal to give for `missing`: the public dataset's, or `missing` itself. */
  async explain(missing: MissingRelation): Promise<QueryRefusal> {
    const [listing] = await this.dataSource.query<Array<{ id: string; title: string }>>(
      `SELECT asset.id, asset.title FROM assets asset
        WHERE asset.readable_name = $1 AND ${this.gate.datasetCondition('visible', 'asset', 'NULL')}`,
      [missing.relation],
    );
    if (!listing) return missing;
    return new UnheldPublicTable({ ...listing, url: this.links.datasetPage(listing.id) }, missing.position);
  }
}
