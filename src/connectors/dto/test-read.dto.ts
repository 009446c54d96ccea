import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';

/** A test read: an uploaded-to-be spec, or an instance's connector, with settings for this read only. */
export class TestReadDto {
  /** The connector DSL document (object, or its JSON text); or give instance_id. */
  @ApiPropertyOptional({
    oneOf: [{ type: 'object', additionalProperties: true }, { type: 'string' }],
    description: 'The connector DSL document to try, as an object or its JSON text',
  })
  @IsOptional()
  spec?: unknown;

  @ApiPropertyOptional({
    description: "One of the caller's instances: its connector, settings and credentials",
  })
  @IsOptional()
  @IsUUID('all', { message: 'instance_id must be an instance id' })
  instance_id?: string;

  @ApiPropertyOptional({ description: 'A connector the caller may see: its stored spec' })
  @IsOptional()
  @IsUUID('all', { message: 'connector_id must be a connector id' })
  connector_id?: string;

  @ApiPropertyOptional({
    description: "The operation to read (default: the instance's, or the spec's first)",
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  operation_id?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  settings?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @IsOptional()
  @IsObject()
  auth_data?: Record<string, unknown>;
}
