import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { DatasetActivityModule } from '../assets/activity/dataset-activity.module';
import { UsersModule } from '../users/users.module';
import { ApiKeyGuard } from './api-key.guard';
import { DownloadController } from './download.controller';
import { StreamAccessService } from './stream-access.service';
import { StreamController } from './stream.controller';
import { StreamService } from './stream.service';

/**
 * BI-tool streaming of datasets and connector tables, authenticated by personal API key, and the
 * same rows as browser downloads through the session.
 */
@Module({
  imports: [UsersModule, AccessModule, DatasetActivityModule],
  controllers: [StreamController, DownloadController],
  providers: [StreamService, StreamAccessService, ApiKeyGuard],
  // The OData feed authenticates and decides access the same way.
  exports: [StreamAccessService, ApiKeyGuard],
})
export class StreamModule {}
