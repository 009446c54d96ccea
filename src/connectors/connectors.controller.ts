import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  ParseUUIDPipe,
  Patch,
  Post,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { MessageResponse } from '../common/message.response';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { SessionGuard } from '../common/guards/session.guard';
import { CONNECTOR_NOT_FOUND, INSTANCE_NOT_FOUND } from '../access/access-gate.service';
import { ConnectorInstancesService } from './connector-instances.service';
import { ConnectorView, SelectOptions, UploadedConnector } from './connector-views';
import { RunFinished, RunStarted, RunView, TestReadResult } from './run-views';
import { ActivatedInstance, InstanceView } from './instance-views';
import { ConnectorsService } from './connectors.service';
import { ActivateConnectorDto } from './dto/activate-connector.dto';
import { OptionsQueryDto } from './dto/options-query.dto';
import { RunInstanceDto } from './dto/run-instance.dto';
import { TestReadDto } from './dto/test-read.dto';
import { UpdateInstanceDto } from './dto/update-instance.dto';
import { UploadConnectorDto } from './dto/upload-connector.dto';
import { ConnectorOptionsService } from './options/connector-options.service';
import { ConnectorRunsService, RunNowAnswer } from './runs/connector-runs.service';
import { TestReadService } from './runs/test-read.service';

/** A malformed id names nothing that exists: 404 like any other missing resource. */
const connectorId = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException(CONNECTOR_NOT_FOUND) });
const instanceId = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException(INSTANCE_NOT_FOUND) });

@ApiTags('connectors')
@Controller('connectors')
export class ConnectorsController {
  constructor(
    private readonly connectors: ConnectorsService,
    private readonly instances: ConnectorInstancesService,
    private readonly runs: ConnectorRunsService,
    private readonly optionsService: ConnectorOptionsService,
    private readonly testReads: TestReadService,
  ) {}

  /** Every connector (docs/product.md, Connectors and instances), with the caller's instance when logged in. */
  @Get()
  @ApiOkResponse({ type: [ConnectorView] })
  list(@CurrentUser() user: AuthenticatedUser | undefined): Promise<ConnectorView[]> {
    return this.connectors.list(user?.id);
  }

  /** The caller's instances with their last run. */
  @Get('my')
  @ApiOkResponse({ type: [InstanceView] })
  @UseGuards(SessionGuard)
  my(@CurrentUser() user: AuthenticatedUser): Promise<InstanceView[]> {
    return this.instances.mine(user);
  }

  /** Options of a select field with an options_endpoint, given the values it depends on. */
  @Get('options')
  @ApiOkResponse({ type: SelectOptions })
  @UseGuards(SessionGuard)
  options(@CurrentUser() user: AuthenticatedUser, @Query() query: OptionsQueryDto): Promise<SelectOptions> {
    return this.optionsService.options(user, query);
  }

  @Get('instance/:id/runs')
  @ApiOkResponse({ type: [RunView], description: 'Newest first' })
  @UseGuards(SessionGuard)
  runHistory(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', instanceId) id: string,
  ): Promise<RunView[]> {
    return this.runs.history(user, id);
  }

  @Get(':id')
  @ApiOkResponse({ type: ConnectorView })
  detail(
    @CurrentUser() user: AuthenticatedUser | undefined,
    @Param('id', connectorId) id: string,
  ): Promise<ConnectorView> {
    return this.connectors.get(user, id);
  }

  /** Its uploader deletes a connector: every instance of it goes, with its table and runs. */
  @Delete(':id')
  @ApiOkResponse({ type: MessageResponse })
  @UseGuards(SessionGuard)
  remove(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', connectorId) id: string,
  ): Promise<MessageResponse> {
    return this.connectors.remove(user, id);
  }

  @Post('upload')
  @ApiCreatedResponse({ type: UploadedConnector })
  @UseGuards(SessionGuard)
  upload(
    @CurrentUser() user: AuthenticatedUser,
    @Body() input: UploadConnectorDto,
  ): Promise<UploadedConnector> {
    return this.connectors.upload(user, input);
  }

  /**
   * Reads the first pages of a spec or an instance's connector (at most 100 records) and answers
   * what a run would write, writing nothing.
   */
  @Post('test-read')
  @HttpCode(200)
  @ApiOkResponse({ type: TestReadResult })
  @UseGuards(SessionGuard)
  testRead(@CurrentUser() user: AuthenticatedUser, @Body() input: TestReadDto): Promise<TestReadResult> {
    return this.testReads.read(user, input);
  }

  /** Forgets an incremental instance's cursor: its next run reads from the start value again. */
  @Post('instance/:id/state/reset')
  @HttpCode(200)
  @ApiOkResponse({ schema: { type: 'object', properties: { state: { type: 'null' } } } })
  @UseGuards(SessionGuard)
  resetState(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', instanceId) id: string,
  ): Promise<{ state: null }> {
    return this.runs.resetState(user, id);
  }

  @Post('activate')
  @ApiCreatedResponse({ type: ActivatedInstance })
  @UseGuards(SessionGuard)
  activate(
    @CurrentUser() user: AuthenticatedUser,
    @Body() input: ActivateConnectorDto,
  ): Promise<ActivatedInstance> {
    return this.instances.activate(user, input);
  }

  @Patch('instance/:id')
  @ApiOkResponse({ type: InstanceView })
  @UseGuards(SessionGuard)
  update(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', instanceId) id: string,
    @Body() input: UpdateInstanceDto,
  ): Promise<InstanceView> {
    return this.instances.update(user, id, input);
  }

  /** Starts a run in the background and answers at once. */
  @Post('instance/:id/run')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: RunStarted })
  @UseGuards(SessionGuard)
  runInBackground(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', instanceId) id: string,
    @Body() input: RunInstanceDto,
  ): Promise<RunStarted> {
    return this.runs.startInBackground(user, id, input);
  }

  /**
   * Runs to the end and answers the row count (Manage tab's Refresh); a run that outlasts the
   * wait answers 202 with its id and goes on in the background.
   */
  @Post('run/:id')
  @HttpCode(200)
  @ApiOkResponse({ type: RunFinished })
  @ApiAcceptedResponse({ type: RunStarted, description: 'The run outlasted the wait and goes on' })
  @UseGuards(SessionGuard)
  async runNow(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', instanceId) id: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<RunNowAnswer> {
    const answer = await this.runs.runNow(user, id);
    if ('status' in answer) response.status(202);
    return answer;
  }

  @Post('remove/:instanceId')
  @HttpCode(200)
  @ApiOkResponse({ type: MessageResponse })
  @UseGuards(SessionGuard)
  removeInstance(
    @CurrentUser() user: AuthenticatedUser,
    @Param('instanceId', instanceId) id: string,
  ): Promise<MessageResponse> {
    return this.instances.remove(user, id);
  }
}
