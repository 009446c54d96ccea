import {
  Body,
  Controller,
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
import type { Response } from 'express';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { SessionGuard } from '../common/guards/session.guard';
import { CONNECTOR_NOT_FOUND, INSTANCE_NOT_FOUND } from '../access/access-gate.service';
import { ConnectorInstancesService } from './connector-instances.service';
import type { ConnectorView, InstanceView, RunView } from './connector-views';
import { ConnectorsService } from './connectors.service';
import { ActivateConnectorDto } from './dto/activate-connector.dto';
import { OptionsQueryDto } from './dto/options-query.dto';
import { RunInstanceDto } from './dto/run-instance.dto';
import { UpdateInstanceDto } from './dto/update-instance.dto';
import { UploadConnectorDto } from './dto/upload-connector.dto';
import { ConnectorOptionsService, SelectOption } from './options/connector-options.service';
import { ConnectorRunsService, RunNowAnswer } from './runs/connector-runs.service';

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
  ) {}

  /** Every connector (docs/product.md, Connectors and instances), with the caller's instance when logged in. */
  @Get()
  list(@CurrentUser() user: AuthenticatedUser | undefined): Promise<ConnectorView[]> {
    return this.connectors.list(user?.id);
  }

  /** The caller's instances with their last run. */
  @Get('my')
  @UseGuards(SessionGuard)
  my(@CurrentUser() user: AuthenticatedUser): Promise<InstanceView[]> {
    return this.instances.mine(user.id);
  }

  /** Options of a select field with an options_endpoint, given the values it depends on. */
  @Get('options')
  @UseGuards(SessionGuard)
  options(
    @CurrentUser() user: AuthenticatedUser,
    @Query() query: OptionsQueryDto,
  ): Promise<{ options: SelectOption[] }> {
    return this.optionsService.options(user, query);
  }

  @Get('instance/:id/runs')
  @UseGuards(SessionGuard)
  runHistory(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', instanceId) id: string,
  ): Promise<RunView[]> {
    return this.runs.history(user, id);
  }

  @Get(':id')
  detail(
    @CurrentUser() user: AuthenticatedUser | undefined,
    @Param('id', connectorId) id: string,
  ): Promise<ConnectorView> {
    return this.connectors.get(user, id);
  }

  @Post('upload')
  @UseGuards(SessionGuard)
  upload(@CurrentUser() user: AuthenticatedUser, @Body() input: UploadConnectorDto) {
    return this.connectors.upload(user.id, input);
  }

  @Post('activate')
  @UseGuards(SessionGuard)
  activate(
    @CurrentUser() user: AuthenticatedUser,
    @Body() input: ActivateConnectorDto,
  ): Promise<{ id: string }> {
    return this.instances.activate(user, input);
  }

  @Patch('instance/:id')
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
  @UseGuards(SessionGuard)
  runInBackground(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', instanceId) id: string,
    @Body() input: RunInstanceDto,
  ) {
    return this.runs.startInBackground(user, id, input);
  }

  /**
   * Runs to the end and answers the row count (Manage tab's Refresh); a run that outlasts the
   * wait answers 202 with its id and goes on in the background.
   */
  @Post('run/:id')
  @HttpCode(200)
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
  @UseGuards(SessionGuard)
  remove(@CurrentUser() user: AuthenticatedUser, @Param('instanceId', instanceId) id: string) {
    return this.instances.remove(user, id);
  }
}
