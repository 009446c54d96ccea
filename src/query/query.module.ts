import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '../access/access.module';
import { DatasetActivityModule } from '../assets/activity/dataset-activity.module';
import { StreamModule } from '../stream/stream.module';
import { QueryHistoryEntry } from './history/entities/query-history-entry.entity';
import { QueryHistoryController } from './history/query-history.controller';
import { QueryHistoryService } from './history/query-history.service';
import { QueryCallerGuard } from './query-caller.guard';
import { QueryController } from './query.controller';
import { UnheldPublicTables } from './check/unheld-public-table';
import { QueryService } from './query.service';
import { QueryAccessWithdrawal } from './run/access-withdrawal.service';
import { QueryRoles } from './run/query-roles.service';
import { QueryRunner } from './run/query-runner.service';
import { QueryDatabase } from './run/query-database';
import { SavedQuery } from './saved/entities/saved-query.entity';
import { SavedQueriesController } from './saved/saved-queries.controller';
import { SavedQueriesService } from './saved/saved-queries.service';

/**
 * User SQL over the tables a user holds (src/query/check: what may run; run/: how it runs), and
 * the workspace's memory of it (history/: what each user ran; saved/: what they kept by name).
 */
@Module({
  imports: [
    StreamModule,
    AccessModule,
    DatasetActivityModule,
    TypeOrmModule.forFeature([QueryHistoryEntry, SavedQuery]),
  ],
  controllers: [QueryHistoryController, SavedQueriesController, QueryController],
  providers: [
    QueryService,
    UnheldPublicTables,
    QueryRoles,
    QueryRunner,
    QueryDatabase,
    QueryCallerGuard,
    QueryHistoryService,
    SavedQueriesService,
    QueryAccessWithdrawal,
  ],
  // Organisations end their leaving members' queries on what they no longer hold.
  exports: [QueryAccessWithdrawal],
})
export class QueryModule {}
