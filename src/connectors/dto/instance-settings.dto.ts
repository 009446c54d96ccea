import { Type } from 'class-transformer';
import { IsArray, IsIn, IsInt, IsObject, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** Fields an instance's owner may set when activating or updating it. */
export class InstanceSettingsDto {
  /** Minutes between scheduled runs; 0 = manual only; above 0 for pro users only. */
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'refresh_interval must be a whole number of minutes' })
  @Min(0, { message: 'refresh_interval must be 0 or more' })
  @Max(525600)
  refresh_interval?: number;

  /** Nested settings JSON (groups as nested objects). */
  @IsOptional()
  @IsObject()
  settings?: Record<string, unknown>;

  /** Secrets (API keys, tokens): stored encrypted, never returned. */
  @IsOptional()
  @IsObject()
  auth_data?: Record<string, unknown>;

  /** Setting keys whose array values each get their own request sequence. */
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  iterations?: string[];

  @IsOptional()
  @IsIn(['GET', 'POST'])
  method?: 'GET' | 'POST';

  @IsOptional()
  @IsObject()
  headers?: Record<string, unknown>;

  /** JSON body template with {{placeholders}}, sent with POST. */
  @IsOptional()
  @IsString()
  @MaxLength(100_000)
  body_template?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  title?: string;

  /** The spec operation (stream) the instance runs; empty = the first. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  operation_id?: string;

  @IsOptional()
  @IsIn(['private', 'public'])
  visibility?: 'private' | 'public';
}
