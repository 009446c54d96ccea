import { DatasetHooks } from './dataset-hooks';
import { DatasetLoadsService } from './dataset-loads.service';
import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { DatasetActivityModule } from './activity/dataset-activity.module';
import { AssetRowsService } from './asset-rows.service';
import { AssetsController } from './assets.controller';
import { AssetsService } from './assets.service';
import { DatasetOwnerService } from './dataset-owner.service';
import { OwnDatasetGuard } from './own-dataset.guard';
import { ColumnProfileService } from './ingest/column-profile.service';
import { CsvIngestService } from './ingest/csv-ingest.service';
import { CsvPreviewInterceptor } from './ingest/csv-preview.interceptor';
import { CsvUploadInterceptor } from './ingest/csv-upload.interceptor';

/**
 * Datasets: the catalogue, streaming CSV ingest into tables in schema `data`, row previews and
 * connector table previews. Access decisions come from the AccessGate (AccessModule).
 */
@Module({
  imports: [AccessModule, DatasetActivityModule, NotificationsModule],
  controllers: [AssetsController],
  providers: [
    AssetsService,
    AssetRowsService,
    DatasetOwnerService,
    CsvIngestService,
    ColumnProfileService,
    CsvUploadInterceptor,
    CsvPreviewInterceptor,
    OwnDatasetGuard,
    DatasetHooks,
    DatasetLoadsService,
  ],
  exports: [
    AssetsService,
    AssetRowsService,
    DatasetOwnerService,
    DatasetHooks,
    DatasetLoadsService,
    AccessModule,
  ],
})
export class AssetsModule {}
