import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { databaseAnswers } from './database-round-trip';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  /** Liveness plus a round trip to the database. */
  @Get()
  async check(): Promise<{ status: 'ok'; database: 'up' }> {
    if (!(await databaseAnswers(this.dataSource)))
      throw new ServiceUnavailableException('Database unavailable');
    return { status: 'ok', database: 'up' };
  }
}
