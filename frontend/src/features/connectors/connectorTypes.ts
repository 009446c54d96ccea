/** A schema field of spec §3 as the API sends it in `schema.fields`. */
export interface SchemaField {
  key: string;
  label?: string;
  type: 'text' | 'number' | 'date' | 'bool' | 'boolean' | 'select' | 'group';
  description?: string;
  options?: Array<string | number | boolean | { label?: string; value: string | number | boolean }>;
  fields?: SchemaField[];
  /** Shown only when each key (sibling, else dotted from the top) holds the value or one of the values. */
  conditions?: Record<string, unknown>;
  /** Goes to auth_data, never to settings. */
  private?: boolean;
  /** false: shown in the form but left out of settings. */
  include?: boolean;
  required?: boolean;
  default?: unknown;
  options_endpoint?: string | Record<string, unknown>;
  depends_on?: string[];
}

export type Values = Record<string, unknown>;
