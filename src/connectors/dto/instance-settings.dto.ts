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
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { OptionalNotNull } from '../../common/decorators/optional-not-null.decorator';

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
  @OptionalNotNull()
  @Type(() => Number)
  @IsInt({ message: 'refresh_interval must be a whole number of minutes' })
  @Min(0, { message: 'refresh_interval must be 0 or more' })
  @Max(525600)
  refresh_interval?: number;

  /** Nested settings JSON (groups as nested objects). */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @OptionalNotNull()
  @IsObject()
  settings?: Record<string, unknown>;

  /** Secrets (API keys, tokens): stored encrypted, never returned. */
  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @OptionalNotNull()
  @IsObject()
  auth_data?: Record<string, unknown>;

  /** Setting keys whose array values each get their own request sequence. */
  @ApiPropertyOptional({ type: [String] })
  @OptionalNotNull()
  @IsArray()
  @IsString({ each: true })
  iterations?: string[];

  @ApiPropertyOptional({ enum: ['GET', 'POST'] })
  @OptionalNotNull()
  @IsIn(['GET', 'POST'])
  method?: 'GET' | 'POST';

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } })
  @OptionalNotNull()
  @IsObject()
  headers?: Record<string, unknown>;

  /** JSON body template with {{placeholders}}, sent with POST. */
  @ApiPropertyOptional({ maxLength: 100_000 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100_000)
  body_template?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @OptionalNotNull()
  @IsString()
  @MaxLength(200)
  title?: string;

  @ApiPropertyOptional({ description: 'The spec operation (stream) the instance runs; empty = the first' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(100)
  operation_id?: string;

  @ApiPropertyOptional({
    type: [String],
    description:
      'Several operations (streams) of the spec, each run into its own table; the first writes the instance table',
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_INSTANCE_OPERATIONS)
  @ArrayUnique()
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  operation_ids?: string[];

  @ApiPropertyOptional({ enum: ['private', 'public'] })
  @OptionalNotNull()
  @IsIn(['private', 'public'])
  visibility?: 'private' | 'public';
}
