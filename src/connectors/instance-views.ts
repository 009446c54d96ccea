import { ApiProperty } from '@nestjs/swagger';
import type { ConnectorInstance } from './entities/connector-instance.entity';
import type { ConnectorRun } from './entities/connector-run.entity';
import type { InstanceTarget } from './instance-operations';
import { RunView, toRunView } from './run-views';
import { OBJECT_OF_ANYTHING, OBJECT_OF_TEXT } from './openapi-json-values';

/** The catalogue listing a table is published as (src/products). */
export class PublishedListing {
  @ApiProperty({ description: 'The listing’s dataset id' })
  id: string;

  @ApiProperty()
  title: string;
}

/** A table an instance fills: its own (first operation) or a further operation's. */
export class InstanceTableView {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The operation (stream); null only for a connector without a spec',
  })
  operation_id: string | null;

  @ApiProperty()
  output_table_name: string;

  @ApiProperty({
    description: "The table's readable name: its OData entity set, stream link and download file name",
    example: 'weather_daily',
  })
  readable_name: string;

  @ApiProperty({ description: 'The {reference} of the stream links and OData: instance-<id> or table-<id>' })
  stream_reference: string;

  @ApiProperty({
    type: () => PublishedListing,
    nullable: true,
    description: 'The live dataset published from this table; null while it is not published',
  })
  published_as: PublishedListing | null;
}

/** An instance as its owner sees it; auth data is never part of it, only whether some is stored. */
export class InstanceView {
  @ApiProperty()
  id: string;

  @ApiProperty()
  connector_id: string;

  @ApiProperty({ type: String, nullable: true })
  connector_title: string | null;

  @ApiProperty()
  title: string;

  @ApiProperty({ enum: ['private', 'public'] })
  visibility: 'private' | 'public';

  @ApiProperty({ description: 'Minutes between scheduled runs; 0 means manual only' })
  refresh_interval: number;

  @ApiProperty({ ...OBJECT_OF_ANYTHING, description: 'Nested settings (groups as nested objects)' })
  settings: Record<string, unknown>;

  @ApiProperty({ type: [String], description: 'Setting keys whose list values each get their own requests' })
  iterations: string[];

  @ApiProperty({ enum: ['GET', 'POST'] })
  method: 'GET' | 'POST';

  @ApiProperty(OBJECT_OF_TEXT)
  headers: Record<string, string>;

  @ApiProperty({ type: String, nullable: true })
  body_template: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The spec operation (stream) the instance runs; null = the first',
  })
  operation_id: string | null;

  @ApiProperty()
  output_table_name: string;

  @ApiProperty({
    description: "Readable name of the instance's own table: its OData entity set, stream link and file name",
    example: 'weather_daily',
  })
  readable_name: string;

  @ApiProperty({
    type: [String],
    description:
      'Every operation the instance runs: the first writes output_table_name, each further one its own table',
  })
  operation_ids: string[];

  @ApiProperty({
    type: () => [InstanceTableView],
    description: 'Every table the instance fills, its own first',
  })
  tables: InstanceTableView[];

  @ApiProperty()
  has_auth_data: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  last_run_started_at: Date | null;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: Date;

  @ApiProperty({ type: String, format: 'date-time' })
  updated_at: Date;

  @ApiProperty({ type: () => RunView, nullable: true })
  last_run: RunView | null;
}

/** POST connectors/activate: the new instance. */
export class ActivatedInstance {
  @ApiProperty()
  id: string;
}

export function toInstanceView(
  instance: ConnectorInstance,
  extra: {
    connectorTitle?: string | null;
    hasAuthData: boolean;
    lastRun: ConnectorRun | null;
    targets: InstanceTarget[];
    /** The listing of each table published, by table name. */
    published: ReadonlyMap<string, PublishedListing>;
  },
): InstanceView {
  return {
    id: instance.id,
    connector_id: instance.connectorId,
    connector_title: extra.connectorTitle ?? null,
    title: instance.title,
    visibility: instance.visibility,
    refresh_interval: instance.refreshInterval,
    settings: instance.settings,
    iterations: instance.iterations,
    method: instance.method,
    headers: instance.headers,
    body_template: instance.bodyTemplate,
    operation_id: instance.operationId ?? null,
    output_table_name: instance.outputTableName,
    readable_name: instance.readableName,
    operation_ids: extra.targets.flatMap((target) => (target.operationId ? [target.operationId] : [])),
    tables: extra.targets.map((target) => ({
      operation_id: target.operationId,
      output_table_name: target.tableName,
      readable_name: target.readableName,
      stream_reference: target.streamReference,
      published_as: extra.published.get(target.tableName) ?? null,
    })),
    has_auth_data: extra.hasAuthData,
    last_run_started_at: instance.lastRunStartedAt,
    created_at: instance.createdAt,
    updated_at: instance.updatedAt,
    last_run: extra.lastRun ? toRunView(extra.lastRun) : null,
  };
}
