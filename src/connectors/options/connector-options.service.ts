import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { AccessGate } from '../../access/access-gate.service';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import { RateLimiterService } from '../../common/rate-limit/rate-limiter.service';
import { ConnectorInstancesService } from '../connector-instances.service';
import type { ConnectorSpec } from '../dsl/connector-spec.types';
import { operationUrlTemplate } from '../dsl/spec-to-connector';
import { ConnectorEngine } from '../engine/connector-engine';
import { ConnectorFetchError } from '../engine/connector-fetch-error';
import { extractRecords } from '../engine/response-path';
import { valueAtPath } from '../engine/template';
import { Connector, SchemaField } from '../entities/connector.entity';
import { flattenFields } from '../fields/schema-fields';
import { redactSecrets, secretsOfRun } from '../runs/redact-secrets';
import type { OptionsQueryDto } from '../dto/options-query.dto';

export interface SelectOption {
  label: string;
  value: string | number | boolean;
}

interface EndpointObject {
  operation?: string;
  url?: string;
  response_path?: string;
  value_key?: string;
  label_key?: string;
}

const MAX_OPTIONS = 1000;

/**
 * Serves a select field's `options_endpoint` through the same engine (SSRF guard, timeouts,
 * limits), filling its template with the values of the fields it `depends_on`.
 */
@Injectable()
export class ConnectorOptionsService {
  constructor(
    private readonly gate: AccessGate,
    private readonly engine: ConnectorEngine,
    private readonly instances: ConnectorInstancesService,
    private readonly rateLimiter: RateLimiterService,
  ) {}

  async options(user: AuthenticatedUser, query: OptionsQueryDto): Promise<{ options: SelectOption[] }> {
    await this.rateLimiter.consume(`connector-options:${user.id}`, { limit: 120, windowSeconds: 60 });
    const connector = await this.gate.requireConnector(user, query.connector_id);
    const entry = flattenFields(connector.schema?.fields ?? []).find(
      (candidate) => candidate.path === query.field,
    );
    if (!entry?.field.options_endpoint) throw new NotFoundException('This field has no options endpoint');
    const values = parseValues(query.values);
    const allowed = Object.fromEntries(
      (entry.field.depends_on ?? [])
        .map((key) => [key, valueAtPath(values, key)])
        .filter(([, value]) => value !== undefined),
    );
    const context: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(allowed)) setNested(context, key, value);
    let authData: Record<string, string> = {};
    if (query.instance_id) {
      const instance = await this.gate.requireInstance(user, query.instance_id);
      authData = await this.instances.authDataOf(instance.id);
    }
    const spec = connector.spec as ConnectorSpec | null;
    const target = this.resolveEndpoint(connector, spec, entry.field);
    const obtainedTokens = new Set<string>();
    try {
      const document = await this.engine.fetchOnce(
        {
          urlTemplate: target.urlTemplate,
          method: 'GET',
          headers: target.headers,
          // Before connecting there are no credentials yet (and Save needs this field filled):
          // the list is then asked for without authentication rather than with empty secrets.
          auth: query.instance_id ? (spec?.auth ?? null) : null,
          authData,
          baseUrl: spec?.base_url ?? null,
          settings: {},
          // The fields this one depends on go along as query parameters unless a template uses them.
          declaredParams: Object.keys(allowed),
        },
        context,
        obtainedTokens,
      );
      const records = extractRecords(document, target.responsePath);
      return {
        options: records
          .slice(0, MAX_OPTIONS)
          .map((record) => toOption(record, target.valueKey, target.labelKey)),
      };
    } catch (error) {
      if (error instanceof ConnectorFetchError)
        throw new BadRequestException(
          `Could not load options: ${redactSecrets(error.message, secretsOfRun(authData, obtainedTokens))}`,
        );
      throw error;
    }
  }

  private resolveEndpoint(connector: Connector, spec: ConnectorSpec | null, field: SchemaField) {
    const raw: string | EndpointObject = field.options_endpoint ?? '';
    const endpoint: EndpointObject = typeof raw === 'string' ? { operation: raw } : raw;
    const reference = endpoint.url ?? endpoint.operation ?? '';
    const operation = spec?.operations.find((candidate) => candidate.id === reference);
    let urlTemplate: string;
    if (operation && spec) urlTemplate = operationUrlTemplate(spec, operation);
    else if (/^https?:\/\//.test(reference)) urlTemplate = reference;
    else if (reference.startsWith('/')) {
      const base =
        spec?.base_url ?? new URL(connector.fetchUrlTemplate.replace(/\{\{[^}]*\}\}/g, 'x')).origin;
      urlTemplate = `${base.replace(/\/+$/, '')}${reference}`;
    } else throw new NotFoundException('This field has no usable options endpoint');
    return {
      urlTemplate,
      headers: Object.fromEntries(
        Object.entries(operation?.headers ?? {}).map(([name, value]) => [name, String(value)]),
      ),
      responsePath: endpoint.response_path ?? operation?.response_path ?? null,
      valueKey: endpoint.value_key,
      labelKey: endpoint.label_key,
    };
  }
}

function parseValues(raw: string | undefined): Record<string, unknown> {
  if (!raw) return {};
  try {
    const parsed = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new BadRequestException('values must be a JSON object');
}

function setNested(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let current = target;
  for (const part of parts.slice(0, -1)) {
    if (!current[part] || typeof current[part] !== 'object') current[part] = {};
    current = current[part] as Record<string, unknown>;
  }
  current[parts[parts.length - 1]] = value;
}

/** An option from a record: explicit keys, else value/id/code and label/name/title. */
function toOption(record: Record<string, unknown>, valueKey?: string, labelKey?: string): SelectOption {
  const pick = (keys: string[]) =>
    keys.map((key) => record[key]).find((value) => value !== undefined && value !== null);
  const rawValue = pick(valueKey ? [valueKey] : ['value', 'id', 'code', 'key']) ?? Object.values(record)[0];
  const value =
    typeof rawValue === 'number' || typeof rawValue === 'boolean' ? rawValue : String(rawValue ?? '');
  const label = pick(labelKey ? [labelKey] : ['label', 'name', 'title']) ?? value;
  return { label: String(label), value };
}
