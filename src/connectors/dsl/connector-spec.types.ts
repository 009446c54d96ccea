import type { SchemaField } from '../entities/connector.entity';

/** The connector upload DSL (documented on the /documentation page), as the JSON Schema in connector-spec.schema.ts accepts it. */
export type AuthType = 'none' | 'bearer' | 'api_key' | 'basic' | 'header' | 'oauth2';

export interface SpecAuthField {
  key: string;
  label?: string;
  required?: boolean;
}

export interface SpecAuth {
  type: AuthType;
  /** api_key only: where the key goes. */
  in?: 'header' | 'query';
  /** Header or query parameter name (api_key, header). */
  name?: string;
  /** Value template, e.g. "Token {{api_key}}"; defaults per type. */
  format?: string;
  fields?: SpecAuthField[];
}

export type PaginationType = 'none' | 'page' | 'cursor' | 'offset';

export interface PaginationSpec {
  type: PaginationType;
  page_param?: string;
  start_page?: number;
  size_param?: string;
  page_size?: number;
  offset_param?: string;
  limit_param?: string;
  cursor_param?: string;
  /** Where the next cursor sits in the response (dotted path). */
  cursor_path?: string;
  /** Where the total record count sits in the response (dotted path). */
  total_path?: string;
  max_pages?: number;
}

export interface OperationSpec {
  id: string;
  name?: string;
  method?: 'GET' | 'POST';
  url_path: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  params_fields?: SchemaField[];
  pagination?: PaginationSpec;
  response_path?: string;
}

export interface ConnectorSpec {
  title?: string;
  description?: string;
  category?: string;
  protocol?: string;
  base_url?: string;
  auth?: SpecAuth;
  operations: OperationSpec[];
  fields?: SchemaField[];
}
