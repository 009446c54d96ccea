import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Patch,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { SessionGuard } from '../common/guards/session.guard';
import { AssetRowsService } from './asset-rows.service';
import {
  AssetData,
  AssetDetail,
  AssetSummary,
  CategoryFacet,
  ConnectorTableRows,
  DatasetActivity,
  DatasetArchived,
  DatasetRefreshed,
  DatasetRemoved,
  UploadedDataset,
  UploadPreview,
} from './asset-views';
import { CsvDialectFieldsDto, UPLOAD_PREVIEW_SCHEMA } from './dto/csv-dialect-fields.dto';
import { previewCsv } from '../formats/readers/csv-preview';
import { CsvPreviewInterceptor } from './ingest/csv-preview.interceptor';
import type { SampledCsv } from './ingest/csv-sample-storage';
import { dialectChoiceOf } from './ingest/dialect-choice';
import { DatasetOwnerService } from './dataset-owner.service';
import { REFRESH_CSV_SCHEMA, RefreshAssetDto, UpdateAssetDto } from './dto/update-asset.dto';
import { MoveAssetDto } from './dto/move-asset.dto';
import { OwnDatasetGuard } from './own-dataset.guard';
import { AssetsService } from './assets.service';
import { AssetDataQueryDto } from './dto/asset-data-query.dto';
import { FacetsQueryDto, ListAssetsQueryDto } from './dto/list-assets-query.dto';
import { UPLOAD_CSV_SCHEMA, UploadCsvDto } from './dto/upload-csv.dto';
import { CsvUploadInterceptor } from './ingest/csv-upload.interceptor';
import type { UploadedCsv } from './ingest/csv-storage-engine';

@ApiTags('assets')
@Controller('assets')
export class AssetsController {
  constructor(
    private readonly assets: AssetsService,
    private readonly rows: AssetRowsService,
    private readonly owner: DatasetOwnerService,
  ) {}

  /** The catalogue the caller may see (docs/product.md, Catalogue visibility); the total for paging is in X-Total-Count. */
  @Get()
  @ApiOkResponse({
    type: [AssetSummary],
    headers: {
      'X-Total-Count': { description: 'Datasets matching the filter', schema: { type: 'integer' } },
    },
  })
  async list(
    @CurrentUser() user: AuthenticatedUser | undefined,
    @Query() query: ListAssetsQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AssetSummary[]> {
    const { items, total } = await this.assets.list(user, query);
    response.setHeader('X-Total-Count', String(total));
    return items;
  }

  /** Every category among the datasets the caller may see, for the DataStore's category filter. */
  @Get('categories')
  @ApiOkResponse({ type: [String] })
  categories(@CurrentUser() user: AuthenticatedUser | undefined): Promise<string[]> {
    return this.assets.categories(user);
  }

  /** Each category with the number of datasets the caller may see that match the search. */
  @Get('facets')
  @ApiOkResponse({ type: [CategoryFacet] })
  facets(
    @CurrentUser() user: AuthenticatedUser | undefined,
    @Query() query: FacetsQueryDto,
  ): Promise<CategoryFacet[]> {
    return this.assets.facets(user, query);
  }

  /** Streams the CSV into a new dataset table; answers where the new dataset lives. */
  @Post('upload-csv')
  @UseGuards(SessionGuard)
  @UseInterceptors(CsvUploadInterceptor)
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: UPLOAD_CSV_SCHEMA })
  @ApiCreatedResponse({ type: UploadedDataset })
  async uploadCsv(
    @CurrentUser() user: AuthenticatedUser,
    @Body() input: UploadCsvDto,
    @Req() request: Request,
  ): Promise<UploadedDataset> {
    const staged = (request.file as UploadedCsv | undefined)?.staged;
    if (!staged) throw new BadRequestException('Add title & CSV file.');
    const id = await this.assets.publishUpload(user, input, staged);
    return { id, redirectUrl: `/dataset_profile/${id}`, dialect: staged.table.dialect };
  }

  /**
   * What an upload of this file would make of it, from its first megabytes: the dialect (detected,
   * or as the form chooses), the columns with their types and the first rows. Nothing is stored.
   */
  @Post('upload-preview')
  @HttpCode(200)
  @UseGuards(SessionGuard)
  @UseInterceptors(CsvPreviewInterceptor)
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: UPLOAD_PREVIEW_SCHEMA })
  @ApiOkResponse({ type: UploadPreview })
  uploadPreview(@Body() _input: CsvDialectFieldsDto, @Req() request: Request): UploadPreview {
    const file = request.file as SampledCsv | undefined;
    if (!file) throw new BadRequestException('Add a CSV file.');
    return previewCsv(file.sample, dialectChoiceOf(request).dialect, file.whole);
  }

  /** The latest 100 rows of a connector instance's table; only its owner may look. */
  @Get('table/:outputTableName')
  @ApiOkResponse({ type: ConnectorTableRows })
  connectorTable(
    @CurrentUser() user: AuthenticatedUser | undefined,
    @Param('outputTableName') outputTableName: string,
  ): Promise<ConnectorTableRows> {
    return this.rows.readConnectorTable(user, outputTableName);
  }

  @Get(':id')
  @ApiOkResponse({ type: AssetDetail })
  findOne(@CurrentUser() user: AuthenticatedUser | undefined, @Param('id') id: string): Promise<AssetDetail> {
    return this.assets.findOne(user, id);
  }

  /** The owner changes what describes the dataset (the upload's rules); answers the detail as it is now. */
  @Patch(':id')
  @UseGuards(SessionGuard)
  @ApiOkResponse({ type: AssetDetail })
  async update(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() input: UpdateAssetDto,
  ): Promise<AssetDetail> {
    await this.owner.update(user, id, input);
    return this.assets.findOne(user, id);
  }

  /**
   * The owner moves their personal dataset into an organisation they are an editor (or above) of,
   * with its rows, versions, subscribers and history; answers the detail as it is now.
   */
  @Post(':id/move')
  @HttpCode(200)
  @UseGuards(SessionGuard)
  @ApiOkResponse({ type: AssetDetail })
  async move(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() input: MoveAssetDto,
  ): Promise<AssetDetail> {
    await this.owner.moveToOrganisation(user, id, input.organisation_id);
    return this.assets.findOne(user, id);
  }

  /** The owner loads a new CSV into the dataset: it replaces the rows, or is appended to them. */
  @Post(':id/refresh')
  @HttpCode(200)
  @UseGuards(SessionGuard, OwnDatasetGuard)
  @UseInterceptors(CsvUploadInterceptor)
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: REFRESH_CSV_SCHEMA })
  @ApiOkResponse({ type: DatasetRefreshed })
  async refresh(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() input: RefreshAssetDto,
    @Req() request: Request,
  ): Promise<DatasetRefreshed> {
    const staged = (request.file as UploadedCsv | undefined)?.staged;
    if (!staged) throw new BadRequestException('Add a CSV file.');
    return this.owner.refresh(user, id, input.mode ?? 'replace', staged);
  }

  /** The owner's view of how the dataset is used: subscribers, grid views and stream requests per day. */
  @Get(':id/activity')
  @UseGuards(SessionGuard)
  @ApiOkResponse({ type: DatasetActivity })
  activity(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<DatasetActivity> {
    return this.owner.activity(user, id);
  }

  /**
   * The owner deletes the dataset: rows, table and grants go; purchases stay in the records. One
   * that others paid for is archived instead, and its holders keep access.
   */
  @Delete(':id')
  @UseGuards(SessionGuard)
  @ApiExtraModels(DatasetRemoved, DatasetArchived)
  @ApiOkResponse({
    schema: { oneOf: [{ $ref: getSchemaPath(DatasetRemoved) }, { $ref: getSchemaPath(DatasetArchived) }] },
  })
  remove(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
  ): Promise<DatasetRemoved | DatasetArchived> {
    return this.owner.remove(user, id);
  }

  /** Grid rows: pages with access, the 10-row sample preview without. */
  @ApiOperation({
    summary: 'Rows of a dataset for the grid',
    description:
      'A page of rows with access, the first 10 rows without. Numbers are JSON numbers, except a ' +
      'value too wide for a double (over 2^53, or more than 15 significant digits), which comes as ' +
      'its exact decimal string; the stream links always send numbers.',
  })
  @Get(':id/data')
  @ApiOkResponse({ type: AssetData })
  data(
    @CurrentUser() user: AuthenticatedUser | undefined,
    @Param('id') id: string,
    @Query() query: AssetDataQueryDto,
  ): Promise<AssetData> {
    return this.rows.readData(user, id, query);
  }
}
