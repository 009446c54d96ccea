import { Module } from '@nestjs/common';
import { DatasetActivityModule } from '../assets/activity/dataset-activity.module';
import { StreamModule } from '../stream/stream.module';
import { QueryCallerGuard } from './query-caller.guard';
import { QueryController } from './query.controller';
import { QueryService } from './query.service';
import { QueryRoles } from './run/query-roles.service';
import { QueryRunner } from './run/query-runner.service';

/** User SQL over the tables a user holds (src/query/check: what may run; run/: how it runs). */
@Module({
  imports: [StreamModule, DatasetActivityModule],
  controllers: [QueryController],
  providers: [QueryService, QueryRoles, QueryRunner, QueryCallerGuard],
})
export class QueryModule {}
