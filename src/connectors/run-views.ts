import { ApiProperty } from '@nestjs/swagger';
import type { ConnectorRun, RunOperationOutcome, RunStatus } from './entities/connector-run.entity';

/** What one operation of a run did (an instance running several operations has one each). */
export class RunOperationView {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The operation (stream); null only for a connector without a spec',
  })
  operation_id: string | null;

  @ApiProperty()
  output_table_name: string;

  @ApiProperty({ enum: ['succeeded', 'failed'] })
  status: 'succeeded' | 'failed';

  @ApiProperty()
  row_count: number;

  @ApiProperty()
  pages_fetched: number;

  @ApiProperty({ type: String, nullable: true })
  error: string | null;

  @ApiProperty({ type: String, nullable: true })
  warning: string | null;
}

export class RunView {
  @ApiProperty()
  id: string;

  @ApiProperty()
  instance_id: string;

  @ApiProperty({ enum: ['manual', 'schedule'] })
  trigger: 'manual' | 'schedule';

  @ApiProperty({ enum: ['running', 'succeeded', 'failed'] })
  status: RunStatus;

  @ApiProperty({ description: "The run replaces the table's rows" })
  override: boolean;

  @ApiProperty({ type: String, format: 'date-time' })
  started_at: Date;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  finished_at: Date | null;

  @ApiProperty()
  row_count: number;

  @ApiProperty()
  pages_fetched: number;

  @ApiProperty({ type: String, nullable: true })
  error: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the rows may be incomplete (a cap stopped the run, answers were ignored)',
  })
  warning: string | null;

  @ApiProperty({
    type: () => [RunOperationView],
    description: 'Per operation, in the order they ran (empty for runs recorded before operations were)',
  })
  operations: RunOperationView[];
}

/** POST connectors/instance/{id}/run: the run goes on in the background. */
export class RunStarted {
  @ApiProperty()
  run_id: string;

  @ApiProperty({ enum: ['running'] })
  status: 'running';
}

/** POST connectors/run/{id}: the finished run. */
export class RunFinished {
  @ApiProperty()
  rowCount: number;

  @ApiProperty()
  run_id: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the rows may be incomplete (a cap stopped the run, answers were ignored)',
  })
  warning: string | null;
}

export function toRunView(run: ConnectorRun): RunView {
  return {
    id: run.id,
    instance_id: run.instanceId,
    trigger: run.trigger,
    status: run.status,
    override: run.override,
    started_at: run.startedAt,
    finished_at: run.finishedAt,
    row_count: run.rowCount,
    pages_fetched: run.pagesFetched,
    error: run.error,
    warning: run.warning ?? null,
    operations: (run.operations ?? []).map((outcome: RunOperationOutcome) => ({ ...outcome })),
  };
}

export class TestReadRequest {
  @ApiProperty()
  method: string;

  @ApiProperty({ description: 'The URL requested, credentials masked' })
  url: string;

  @ApiProperty({ type: Number, nullable: true, description: 'null when no answer came' })
  status: number | null;

  @ApiProperty({ description: 'Milliseconds until the answer' })
  ms: number;
}

export class TestReadColumn {
  @ApiProperty({ description: 'The column a run would write' })
  name: string;

  @ApiProperty({ description: 'The record field it comes from' })
  field: string;

  @ApiProperty({ enum: ['boolean', 'numeric', 'date', 'timestamptz', 'text', 'jsonb'] })
  type: string;
}

export class TestReadResult {
  @ApiProperty({ type: [TestReadRequest] })
  requests: TestReadRequest[];

  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'At most 100 records as a run would write them (numbers beyond a double as text)',
  })
  records: Record<string, unknown>[];

  @ApiProperty({ type: [TestReadColumn] })
  columns: TestReadColumn[];

  @ApiProperty({ type: [String] })
  warnings: string[];

  @ApiProperty({ type: String, nullable: true, description: 'Why the read stopped early, if it failed' })
  error: string | null;

  @ApiProperty()
  pages: number;
}
