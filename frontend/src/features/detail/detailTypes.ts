import type { AssetSummary, ConnectorSummary } from '../datastore/catalogTypes';
import type { SchemaField } from '../connectors/connectorTypes';
import type { DatasetColumn } from './gridColumns';

export interface AssetDetail extends AssetSummary {
  columns?: DatasetColumn[];
}

export interface AssetRows {
  columns: Array<DatasetColumn | string>;
  rows: Array<Record<string, unknown>>;
  total: number;
  sample: boolean;
}

export interface ConnectorDetail extends ConnectorSummary {
  fetch_url_template: string;
  schema?: { fields?: SchemaField[] } | null;
  auth_fields?: unknown;
  /** The uploaded DSL document: its operations are the streams an instance may run. */
  spec?: { operations?: Array<{ id: string; name?: string }> } | null;
}

export interface InstanceDetail {
  id: string;
  connector_id: string;
  title: string;
  visibility: 'private' | 'public';
  refresh_interval: number;
  settings: Record<string, unknown>;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body_template?: string | null;
  operation_id?: string | null;
  output_table_name: string;
  has_auth_data?: boolean;
  last_run?: { status: string; row_count?: number; finished_at?: string | null } | null;
}
