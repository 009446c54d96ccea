import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { isLosslessNumber } from 'lossless-json';
import { DataSource } from 'typeorm';
import { AccessGate } from '../../access/access-gate.service';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import type { TestReadResult } from '../run-views';
import { ConnectorInstancesService } from '../connector-instances.service';
import { defaultMethod, prepareInstanceSettings } from '../instance-settings-rules';
import { parseSpec } from '../connectors.service';
import type { ConnectorSpec } from '../dsl/connector-spec.types';
import { validateConnectorSpec } from '../dsl/connector-spec.validator';
import { hideUrlSecrets } from '../dsl/spec-secrets';
import { specToConnector } from '../dsl/spec-to-connector';
import type { TestReadDto } from '../dto/test-read.dto';
import { detectColumns } from '../engine/column-types';
import { ConnectorEngine, newProgress, RunProgress } from '../engine/connector-engine';
import { ConnectorFetchError } from '../engine/connector-fetch-error';
import { Connector } from '../entities/connector.entity';
import { ConnectorInstance } from '../entities/connector-instance.entity';
import { buildRunPlan } from './build-run-plan';
import { redactSecrets, secretsOfRun } from './redact-secrets';

/** A test read stops after this many records… */
export const TEST_READ_MAX_RECORDS = 100;
/** …or this many pages, whichever comes first. */
export const TEST_READ_MAX_PAGES = 5;

/**
 * Runs a spec (or an instance's connector) through the same engine, limits and address guard as
 * a real run, and answers what it saw: the requests (credentials masked), the first records, the
 * columns and types a run would create, and any warning. Nothing is written: no table, no run, no
 * state, no cached token.
 */
@Injectable()
export class TestReadService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly engine: ConnectorEngine,
    private readonly gate: AccessGate,
    @Inject(ConnectorInstancesService) private readonly instances: ConnectorInstancesService,
  ) {}

  async read(user: AuthenticatedUser, input: TestReadDto): Promise<TestReadResult> {
    const { connector, instance, storedAuth } = await this.source(user, input);
    const prepared = prepareInstanceSettings(
      connector,
      {
        settings: input.settings ?? instance.settings,
        auth_data: input.auth_data,
        operation_id: input.operation_id,
      },
      {},
      storedAuth,
    );
    const chosen: ConnectorInstance = {
      ...instance,
      operationId: prepared.operationId !== undefined ? prepared.operationId : instance.operationId,
    };
    const plan = buildRunPlan(connector, chosen, prepared.settings, prepared.authData);
    const progress: RunProgress = {
      ...newProgress(),
      requests: [],
      maxRows: TEST_READ_MAX_RECORDS,
      maxPages: TEST_READ_MAX_PAGES,
    };
    const records: Record<string, unknown>[] = [];
    let error: string | null = null;
    try {
      for await (const page of this.engine.pages(plan, progress)) {
        for (const record of page.records) {
          const iteration = Object.fromEntries(
            Object.entries(page.iteration).map(([key, value]) => [`_${key}`, value]),
          );
          records.push({ ...record, ...iteration });
        }
      }
    } catch (failure) {
      if (!(failure instanceof ConnectorFetchError)) throw failure;
      error = failure.message;
    }
    // Read after the run: the tokens it obtained are secrets too.
    const secrets = secretsOfRun(prepared.authData, progress.obtainedTokens);
    return {
      requests: (progress.requests ?? []).map((entry) => ({
        method: entry.method,
        url: redactSecrets(hideUrlSecrets(entry.url), secrets),
        status: entry.status,
        ms: entry.ms,
      })),
      records: records.map(plainJson) as Record<string, unknown>[],
      columns: detectColumns(records),
      warnings: progress.warnings,
      error: error === null ? null : redactSecrets(error, secrets),
      pages: progress.pages,
    };
  }

  /** The connector and instance to read: an owned instance's, or ones made up from the given spec. */
  private async source(
    user: AuthenticatedUser,
    input: TestReadDto,
  ): Promise<{ connector: Connector; instance: ConnectorInstance; storedAuth: Record<string, string> }> {
    if (input.instance_id) {
      const instance = await this.gate.requireInstance(user, input.instance_id);
      const connector = await this.dataSource
        .getRepository(Connector)
        .findOneByOrFail({ id: instance.connectorId });
      const storedAuth = await this.instances.authDataOf(instance.id);
      return { connector, instance, storedAuth };
    }
    if (input.connector_id) {
      const connector = await this.gate.requireConnector(user, input.connector_id);
      return { connector, instance: this.blankInstance(defaultMethod(connector)), storedAuth: {} };
    }
    if (input.spec === undefined)
      throw new BadRequestException('Give a spec, a connector_id or an instance_id to test');
    const spec = parseSpec(input.spec);
    const problems = validateConnectorSpec(spec);
    if (problems.length > 0) throw new BadRequestException({ message: problems });
    const definition = specToConnector(spec as ConnectorSpec);
    const connector = Object.assign(new Connector(), {
      // Test reads of specs share one rate budget per user.
      id: `test-read:${user.id}`,
      fetchUrlTemplate: definition.fetchUrlTemplate,
      schema: { fields: definition.schemaFields },
      specificationSchema: { fields: definition.specificationFields },
      authFields: definition.authFields,
      spec: spec as Record<string, unknown>,
    });
    return { connector, instance: this.blankInstance(definition.method), storedAuth: {} };
  }

  /** An instance not made yet: default settings, no state. */
  private blankInstance(method: 'GET' | 'POST'): ConnectorInstance {
    return Object.assign(new ConnectorInstance(), {
      settings: {},
      iterations: [],
      method,
      headers: {},
      bodyTemplate: null,
      operationId: null,
      incrementalState: null,
    });
  }
}

/** Exact numbers a double cannot hold are answered as their digits (JSON numbers would round). */
function plainJson(value: unknown): unknown {
  if (isLosslessNumber(value)) return value.toString();
  if (Array.isArray(value)) return value.map(plainJson);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, plainJson(inner)]));
  }
  return value;
}
