import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ListingDocumentsService } from './listing-documents.service';

/** Files crawlers look for at the site's root, outside /api (see SITE_FILES in app.setup.ts). */
@ApiExcludeController()
@Controller()
export class SiteFilesController {
  constructor(private readonly documents: ListingDocumentsService) {}

  @Get('robots.txt')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  robots(): string {
    return this.documents.robots();
  }

  @Get('sitemap.xml')
  @Header('Content-Type', 'application/xml; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  sitemap(): Promise<string> {
    return this.documents.sitemap();
  }
}
