import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { ListingDocumentsService } from './listing-documents.service';
import { ListingPagesService } from './listing-pages.service';
import { ListingsController } from './listings.controller';
import { PublicListingsService } from './public-listings.service';
import { SiteFilesController } from './site-files.controller';

/**
 * What search engines, link previews and open-data portals read: the head of public listing pages
 * (ListingPagesService, used by the SPA fallback), sitemap.xml and robots.txt, a Data Package per
 * dataset and the DCAT feed of the public catalogue. What is public is the AccessGate's decision.
 */
@Module({
  imports: [AccessModule],
  controllers: [ListingsController, SiteFilesController],
  providers: [PublicListingsService, ListingPagesService, ListingDocumentsService],
  exports: [ListingPagesService],
})
export class ListingsModule {}
