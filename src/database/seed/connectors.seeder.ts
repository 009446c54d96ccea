import { Injectable } from '@nestjs/common';
import { ConnectorsService } from '../../connectors/connectors.service';
import { SEED_CONNECTORS } from '../../connectors/seed/seed-connectors';
import type { SeedContext } from './seed-context';

/** Demo connectors owned by the demo user; found again by title, so running twice changes nothing. */
@Injectable()
export class ConnectorsSeeder {
  constructor(private readonly connectors: ConnectorsService) {}

  async run(context: SeedContext): Promise<void> {
    for (const seed of SEED_CONNECTORS) await this.connectors.upsertSeed(context.demoUserId, seed);
  }
}
