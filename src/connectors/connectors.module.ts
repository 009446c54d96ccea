import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessModule } from '../access/access.module';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { ConnectorInstancesService } from './connector-instances.service';
import { ConnectorsController } from './connectors.controller';
import { ConnectorsService } from './connectors.service';
import { ConnectorEngine } from './engine/connector-engine';
import { ConnectorTableWriter } from './engine/connector-table-writer';
import { demoFeedUrl } from './seed/demo-feed-url';
import { DEFAULT_ENGINE_LIMITS } from './engine/engine-limits';
import { ConnectorOptionsService } from './options/connector-options.service';
import { ConnectorRunsService } from './runs/connector-runs.service';
import { TestReadService } from './runs/test-read.service';
import { ConnectorLifecycle } from './runs/run-end-listeners';
import { ConnectorSchedulerService } from './scheduler/connector-scheduler.service';

/** Connector catalogue, DSL upload, instances, the HTTP engine, runs and the scheduler. */
@Module({
  imports: [AccessModule],
  controllers: [ConnectorsController],
  providers: [
    ConnectorsService,
    ConnectorInstancesService,
    ConnectorRunsService,
    ConnectorOptionsService,
    ConnectorSchedulerService,
    ConnectorLifecycle,
    TestReadService,
    {
      provide: ConnectorEngine,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) =>
        new ConnectorEngine({
          ...DEFAULT_ENGINE_LIMITS,
          allowPrivateNetworks: config.connectorAllowPrivateNetworks,
          // The seeded live product reads the app's own demo feed, and nothing else on loopback.
          allowedUrls: [demoFeedUrl(config.port)],
        }),
    },
    {
      provide: ConnectorTableWriter,
      inject: [DataSource],
      useFactory: (dataSource: DataSource) => new ConnectorTableWriter(dataSource),
    },
  ],
  exports: [
    ConnectorsService,
    ConnectorInstancesService,
    ConnectorRunsService,
    ConnectorSchedulerService,
    ConnectorLifecycle,
  ],
})
export class ConnectorsModule {}
