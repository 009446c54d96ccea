import { Controller, Get, Param, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { ApiKeyGuard, UseApiKeyRateLimit } from '../stream/api-key.guard';
import { ODataExceptionFilter } from './odata-exception.filter';
import { queryParameters, readQueryOptions } from './odata-query-options';
import { ODATA_RATE_LIMIT } from './odata-rate-limit';
import { ODataService } from './odata.service';

const JSON_TYPE = 'application/json; odata.metadata=minimal; charset=utf-8';
/** What a collection answers as: a client that asked for IEEE754Compatible is told it got it. */
const IEEE754_JSON_TYPE = 'application/json; odata.metadata=minimal; IEEE754Compatible=true; charset=utf-8';
const MAX_PAGE_SIZE_PREFERENCE = /(?:^|[,;\s])odata\.maxpagesize=([0-9]{1,9})(?:$|[,;\s])/i;

/** `Prefer: odata.maxpagesize=N`, the page size a client asks for (at least 1). */
function preferredPageSize(request: Request): number | undefined {
  const match = MAX_PAGE_SIZE_PREFERENCE.exec(request.header('prefer') ?? '');
  return match ? Math.max(Number(match[1]), 1) : undefined;
}

function setAnswerHeaders(response: Response, contentType: string): void {
  response.status(200);
  response.setHeader('OData-Version', '4.0');
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Content-Type', contentType);
}

function answer(response: Response, contentType: string, body: string): void {
  setAnswerHeaders(response, contentType);
  response.end(body);
}

/**
 * The read-only OData v4 feed of everything an API key's owner may read, for BI tools that
 * read OData natively (Power BI, Excel, Tableau): they follow its paging and push filters down.
 */
@ApiTags('odata')
@ApiSecurity('api_key')
@Controller('odata')
@UseGuards(ApiKeyGuard)
@UseApiKeyRateLimit(ODATA_RATE_LIMIT)
@UseFilters(ODataExceptionFilter)
export class ODataController {
  constructor(private readonly odata: ODataService) {}

  @Get()
  @ApiOperation({
    summary: 'OData service document: one entity set per held dataset and owned connector table',
  })
  @ApiOkResponse({ description: 'OData JSON service document' })
  async serviceDocument(@CurrentUser() user: AuthenticatedUser, @Res() response: Response): Promise<void> {
    answer(response, JSON_TYPE, JSON.stringify(await this.odata.serviceDocument(user)));
  }

  @Get('$metadata')
  @ApiOperation({ summary: 'OData CSDL: each entity set with its columns, EDM types and key' })
  @ApiOkResponse({ description: 'CSDL XML' })
  async metadata(@CurrentUser() user: AuthenticatedUser, @Res() response: Response): Promise<void> {
    answer(response, 'application/xml; charset=utf-8', await this.odata.metadata(user));
  }

  @Get(':entitySet/$count')
  @ApiOperation({ summary: 'Rows of an entity set that $filter keeps, as plain text' })
  @ApiParam({
    name: 'entitySet',
    description: 'The readable table name from the service document (former Dataset_<hex> names work too)',
  })
  async count(
    @CurrentUser() user: AuthenticatedUser,
    @Param('entitySet') entitySet: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const options = readQueryOptions(queryParameters(request.originalUrl), request.header('accept'));
    answer(response, 'text/plain; charset=utf-8', await this.odata.count(user, entitySet, options));
  }

  @Get(':entitySet')
  @ApiOperation({
    summary: 'One page of an entity set: $select, $filter, $orderby, $top, $skip, $count, @odata.nextLink',
  })
  @ApiParam({
    name: 'entitySet',
    description: 'The readable table name from the service document (former Dataset_<hex> names work too)',
  })
  @ApiOkResponse({ description: 'OData JSON collection' })
  async collection(
    @CurrentUser() user: AuthenticatedUser,
    @Param('entitySet') entitySet: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const query = queryParameters(request.originalUrl);
    const options = readQueryOptions(query, request.header('accept'));
    const preferred = preferredPageSize(request);
    await this.odata.page(
      user,
      { entitySet, options, query, preferredPageSize: preferred },
      {
        response,
        onStart: (appliedPageSize) => {
          if (appliedPageSize !== undefined) {
            response.setHeader('Preference-Applied', `odata.maxpagesize=${appliedPageSize}`);
          }
          setAnswerHeaders(response, options.ieee754Compatible ? IEEE754_JSON_TYPE : JSON_TYPE);
        },
      },
    );
  }
}
