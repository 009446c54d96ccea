import { Controller, Get, Header, Param } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { ListingDocumentsService } from './listing-documents.service';

const JSON_OBJECT = { schema: { type: 'object', additionalProperties: true } } as const;

/** Descriptions of the catalogue in open formats, for open-data portals and data tools. */
@ApiTags('listings')
@Controller()
export class ListingsController {
  constructor(private readonly documents: ListingDocumentsService) {}

  @Get('assets/:id/datapackage.json')
  @ApiOperation({
    summary: 'A dataset as a Frictionless Data Package v2 (its columns as a Table Schema)',
    description: 'Public datasets for anyone; a private one for its owner and holders only.',
  })
  @ApiOkResponse(JSON_OBJECT)
  @ApiNotFoundResponse({ description: 'Dataset not found (or not visible to the caller)' })
  dataPackage(
    @CurrentUser() user: AuthenticatedUser | undefined,
    @Param('id') id: string,
  ): Promise<Record<string, unknown>> {
    return this.documents.dataPackage(user, id);
  }

  @Get('catalog/dcat.jsonld')
  @Header('Content-Type', 'application/ld+json; charset=utf-8')
  @ApiOperation({ summary: 'The public catalogue as a DCAT 3 dcat:Catalog in JSON-LD' })
  @ApiProduces('application/ld+json')
  @ApiOkResponse(JSON_OBJECT)
  dcat(): Promise<Record<string, unknown>> {
    return this.documents.dcat();
  }
}
