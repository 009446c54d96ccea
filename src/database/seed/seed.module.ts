import { ProductsModule } from '../../products/products.module';
import { Module } from '@nestjs/common';
import { AssetsModule } from '../../assets/assets.module';
import { BlogModule } from '../../blog/blog.module';
import { ConnectorsModule } from '../../connectors/connectors.module';
import { UsersModule } from '../../users/users.module';
import { BlogSeeder } from './blog.seeder';
import { ConnectorsSeeder } from './connectors.seeder';
import { DatasetsSeeder } from './datasets.seeder';
import { DemoUserSeeder } from './demo-user.seeder';
import { SeedService } from './seed.service';

@Module({
  imports: [UsersModule, AssetsModule, ConnectorsModule, ProductsModule, BlogModule],
  providers: [SeedService, DemoUserSeeder, DatasetsSeeder, ConnectorsSeeder, BlogSeeder],
  exports: [SeedService],
})
export class SeedModule {}
