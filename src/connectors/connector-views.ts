import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { hideUrlSecrets, specWithoutSecrets } from './dsl/spec-secrets';
import type { AuthField, Connector, SchemaField } from './entities/connector.entity';
import { SCALAR_VALUE, ANY_JSON_VALUE, OBJECT_OF_ANYTHING } from './openapi-json-values';

/**
 * A schema field as the connector DSL allows it (see connector-spec.schema.ts), for the OpenAPI
 * document: the DSL's validator, not the SchemaField interface, decides what is stored.
 */
@ApiSchema({ name: 'SchemaField' })
class SchemaFieldDocument {
  @ApiProperty()
  key: string;

  @ApiPropertyOptional()
  label?: string;

  @ApiProperty({ enum: ['text', 'number', 'date', 'bool', 'boolean', 'select', 'group'] })
  type: SchemaField['type'];

  @ApiPropertyOptional()
  description?: string;

  @ApiPropertyOptional({
    type: 'array',
    items: {
      oneOf: [
        ...SCALAR_VALUE.oneOf,
        {
          type: 'object',
          properties: { label: { type: 'string' }, value: SCALAR_VALUE },
          required: ['value'],
        },
      ],
    },
  })
  options?: unknown[];

  @ApiPropertyOptional({ type: () => [SchemaFieldDocument], description: 'The fields of a group' })
  fields?: SchemaFieldDocument[];

  @ApiPropertyOptional({
    ...OBJECT_OF_ANYTHING,
    description: 'Shown only while every listed key holds the given value (or one of the values)',
  })
  conditions?: Record<string, unknown>;

  @ApiPropertyOptional({ description: 'The value goes to auth data, never to settings' })
  private?: boolean;

  @ApiPropertyOptional({ description: 'false: shown in the form but left out of settings' })
  include?: boolean;

  @ApiPropertyOptional()
  required?: boolean;

  @ApiPropertyOptional(ANY_JSON_VALUE)
  default?: unknown;

  @ApiPropertyOptional({
    description: 'An operation id, a path or URL template, or that with response and option key mapping',
    oneOf: [
      { type: 'string' },
      {
        type: 'object',
        properties: {
          operation: { type: 'string' },
          url: { type: 'string' },
          response_path: { type: 'string' },
          value_key: { type: 'string' },
          label_key: { type: 'string' },
        },
      },
    ],
  })
  options_endpoint?: SchemaField['options_endpoint'];

  @ApiPropertyOptional({ type: [String] })
  depends_on?: string[];
}

@ApiSchema({ name: 'SchemaFieldList' })
class SchemaFieldListDocument {
  @ApiProperty({ type: () => [SchemaFieldDocument] })
  fields: SchemaField[];
}

@ApiSchema({ name: 'AuthField' })
class AuthFieldDocument {
  @ApiProperty()
  label: string;

  @ApiProperty()
  key: string;

  @ApiProperty()
  required: boolean;
}

/** A connector as the catalogue and detail screen see it (names of the product spec). */
export class ConnectorView {
  @ApiProperty()
  id: string;

  @ApiProperty({ enum: ['connector'] })
  type: 'connector';

  @ApiProperty()
  title: string;

  @ApiProperty()
  description: string;

  @ApiProperty()
  category: string;

  @ApiProperty()
  price: number;

  @ApiProperty()
  is_public: boolean;

  @ApiProperty({ type: String, nullable: true })
  owner_user_id: string | null;

  @ApiProperty({ type: String, nullable: true })
  image: string | null;

  @ApiProperty()
  source: string;

  @ApiProperty()
  author: string;

  @ApiProperty({ description: 'URL with {{placeholders}} filled from the settings' })
  fetch_url_template: string;

  @ApiProperty({ type: () => SchemaFieldListDocument })
  schema: { fields: SchemaField[] };

  @ApiProperty({ type: () => SchemaFieldListDocument })
  specification_schema: { fields: SchemaField[] };

  @ApiProperty({ type: () => [AuthFieldDocument] })
  auth_fields: AuthField[];

  @ApiProperty()
  subscriber_count: number;

  @ApiProperty({ type: String, format: 'date-time' })
  created_at: Date;

  @ApiProperty({ description: 'The logged-in caller uploaded it' })
  owned: boolean;

  @ApiProperty({ description: 'The logged-in caller has an instance of it' })
  has_instance: boolean;

  @ApiProperty({ type: String, nullable: true })
  instance_id: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description:
      "For its uploader: other users' instances of it, the connections that stop if it is deleted; null for anyone else",
  })
  other_connections: number | null;

  @ApiPropertyOptional({
    ...OBJECT_OF_ANYTHING,
    nullable: true,
    description: 'The uploaded DSL document (detail only)',
  })
  spec?: Record<string, unknown> | null;
}

/** POST connectors/upload: the new connector and where it is shown. */
export class UploadedConnector {
  @ApiProperty()
  id: string;

  @ApiProperty({ example: '/connector_profile/0b6e…' })
  redirectUrl: string;
}

@ApiSchema({ name: 'SelectOption' })
class SelectOptionDocument {
  @ApiProperty()
  label: string;

  @ApiProperty(SCALAR_VALUE)
  value: string | number | boolean;
}

/** GET connectors/options: the choices of a select field with an options_endpoint. */
export class SelectOptions {
  @ApiProperty({ type: () => [SelectOptionDocument] })
  options: SelectOptionDocument[];
}

/** A connector as the caller may see it: static credentials in its spec are for its owner only. */
export function toConnectorView(
  connector: Connector,
  caller: { userId?: string; instanceId?: string | null; otherConnections?: number },
  detail = false,
): ConnectorView {
  const owned = !!caller.userId && connector.ownerId === caller.userId;
  return {
    id: connector.id,
    type: 'connector',
    title: connector.title,
    description: connector.description,
    category: connector.category || 'API',
    price: Number(connector.price),
    is_public: connector.isPublic,
    owner_user_id: connector.ownerId,
    image: connector.image,
    source: connector.source,
    author: connector.author,
    fetch_url_template: owned ? connector.fetchUrlTemplate : hideUrlSecrets(connector.fetchUrlTemplate),
    schema: { fields: connector.schema?.fields ?? [] },
    specification_schema: { fields: connector.specificationSchema?.fields ?? [] },
    auth_fields: normalizeAuthFields(connector.authFields),
    subscriber_count: connector.subscriberCount,
    created_at: connector.createdAt,
    owned,
    has_instance: !!caller.instanceId,
    instance_id: caller.instanceId ?? null,
    other_connections: owned ? (caller.otherConnections ?? 0) : null,
    ...(detail ? { spec: owned ? connector.spec : specWithoutSecrets(connector.spec) } : {}),
  };
}

/** auth_fields may be stored as a JSON string or an array; always answer an array. */
export function normalizeAuthFields(raw: unknown): AuthField[] {
  let value = raw;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(value)) return [];
  return value
    .filter(
      (field): field is AuthField => !!field && typeof field === 'object' && typeof field.key === 'string',
    )
    .map((field) => ({ label: field.label ?? field.key, key: field.key, required: !!field.required }));
}
