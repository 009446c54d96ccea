import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { QueryConfig } from 'pg';
import { DataSource } from 'typeorm';
import { pgPool } from '../database/sql';

/** The health check answers within a second whatever the database does (load balancers wait on it). */
export const HEALTH_DATABASE_WAIT_MS = 800;

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  /** Liveness plus a round trip to the database, given up on after HEALTH_DATABASE_WAIT_MS. */
  @Get()
  async check(): Promise<{ status: 'ok'; database: 'up' }> {
    let timer: NodeJS.Timeout | undefined;
    // pg honours a per-query answer limit its types do not list.
    const roundTrip: Promise<unknown> = pgPool(this.dataSource).query({
      text: 'SELECT 1',
      query_timeout: HEALTH_DATABASE_WAIT_MS,
    } as QueryConfig);
    // Waiting for a pooled connection is not covered by the query's own limit.
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer in time')), HEALTH_DATABASE_WAIT_MS);
    });
    try {
      await Promise.race([roundTrip, deadline]);
    } catch {
      roundTrip.catch(() => undefined);
      throw new ServiceUnavailableException('Database unavailable');
    } finally {
      clearTimeout(timer);
    }
    return { status: 'ok', database: 'up' };
  }
}
