import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { AssetsModule } from '../assets/assets.module';
import { ConnectorsModule } from '../connectors/connectors.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { DemoFeedController } from './demo/demo-feed.controller';
import { DemoProductSeeder } from './demo/demo-product.seeder';
import { LiveViews } from './live-views';
import { ProductFreshnessService } from './product-freshness.service';
import { ProductRefreshService } from './product-refresh.service';
import { ProductsController } from './products.controller';
import { ProductsService } from './products.service';

/**
 * Live products, the join of connectors and datasets: a published connector table is a dataset
 * whose versions come from the connection's runs. The read paths never know where rows came from.
 */
@Module({
  imports: [AccessModule, AssetsModule, ConnectorsModule, NotificationsModule],
  controllers: [ProductsController, DemoFeedController],
  providers: [ProductsService, ProductRefreshService, ProductFreshnessService, LiveViews, DemoProductSeeder],
  exports: [ProductRefreshService, ProductFreshnessService, DemoProductSeeder],
})
export class ProductsModule {}
