import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

/** How many operations one instance may run, each with its own table. */
export const MAX_INSTANCE_OPERATIONS = 10;

/** Fields an instance's owner may set when activating or updating it. */
export class InstanceSettingsDto {
  /** Minutes between scheduled runs; 0 = manual only; above 0 for pro users only. */
  @ApiPropertyOptional({
    minimum: 0,
    maximum: 525600,
    description: 'Minutes; 0 = manual only; above 0 for pro users',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'refresh_interval must be a whole number of minutes' })
  @Min(0, { message: 'refresh_interval must be 0 or more' })
  @Max(525600)
  refresh_interval?: number;

  /** Nested settings JSON (groups as nested objects). */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  settings?: Record<string, unknown>;

  /** Secrets (API keys, tokens): stored encrypted, never returned. */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  auth_data?: Record<string, unknown>;

  /** Setting keys whose array values each get their own request sequence. */
  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  iterations?: string[];

  @ApiPropertyOptional({ enum: ['GET', 'POST'] })
  @IsOptional()
  @IsIn(['GET', 'POST'])
  method?: 'GET' | 'POST';

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @IsOptional()
  @IsObject()
  headers?: Record<string, unknown>;

  /** JSON body template with {{placeholders}}, sent with POST. */
  @ApiPropertyOptional({ maxLength: 100_000 })
  @IsOptional()
  @IsString()
  @MaxLength(100_000)
  body_template?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  title?: string;

  @ApiPropertyOptional({ description: 'The spec operation (stream) the instance runs; empty = the first' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  operation_id?: string;

  @ApiPropertyOptional({
    type: [String],
    description:
      'Several operations (streams) of the spec, each run into its own table; the first writes the instance table',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_INSTANCE_OPERATIONS)
  @ArrayUnique()
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  operation_ids?: string[];

  @ApiPropertyOptional({ enum: ['private', 'public'] })
  @IsOptional()
  @IsIn(['private', 'public'])
  visibility?: 'private' | 'public';
}
