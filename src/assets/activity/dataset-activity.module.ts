import { Module } from '@nestjs/common';
import { DatasetActivityService } from './dataset-activity.service';

/** The per-process usage tally of datasets (grid views, stream requests), shared by assets and streams. */
@Module({
  providers: [DatasetActivityService],
  exports: [DatasetActivityService],
})
export class DatasetActivityModule {}
