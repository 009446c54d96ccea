import { Module } from '@nestjs/common';
import { DatasetActivityModule } from '../assets/activity/dataset-activity.module';
import { StreamModule } from '../stream/stream.module';
import { ODataController } from './odata.controller';
import { ODataService } from './odata.service';

/** The read-only OData v4 feed for BI tools, on the stream module's API-key guard and access. */
@Module({
  imports: [StreamModule, DatasetActivityModule],
  controllers: [ODataController],
  providers: [ODataService],
})
export class ODataModule {}
