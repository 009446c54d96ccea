import { Controller, Get, Inject, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ReadReplica } from '../database/read-replica.service';
import { databaseAnswers } from './database-round-trip';
import { replicationHealth, ReplicationHealth } from './replication-health';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reads: ReadReplica,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Liveness plus a round trip to the database: 503 when the primary does not answer. 200
   * `degraded` (the process serves; keep it in the load balancer) while a replica is missing.
   */
  @Get()
  async check(): Promise<
    { status: 'ok' | 'degraded'; database: 'up' } & Omit<ReplicationHealth, 'degraded'>
  > {
    if (!(await databaseAnswers(this.dataSource)))
      throw new ServiceUnavailableException('Database unavailable');
    const { degraded, ...replication } = await replicationHealth(
      this.dataSource,
      this.reads,
      this.config.databaseExpectedReplicas,
    );
    return { status: degraded ? 'degraded' : 'ok', database: 'up', ...replication };
  }
}
