import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUUID, Matches, MaxLength } from 'class-validator';

/** Look-up of a select field's options through its options_endpoint. */
export class OptionsQueryDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'connector_id must be a connector id' })
  connector_id: string;

  /** Dotted key of the select field (`group.key` inside groups). */
  @ApiProperty({ description: 'Dotted key of the select field (`group.key` inside groups)' })
  @IsString()
  @Matches(/^[\w.-]{1,200}$/)
  field: string;

  /** JSON object with the current values of the fields it depends_on. */
  @ApiPropertyOptional({ description: 'JSON object with the current values of the fields it depends_on' })
  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  values?: string;

  /** The caller's instance whose auth data the look-up may use. */
  @ApiPropertyOptional({
    format: 'uuid',
    description: "The caller's instance whose auth data the look-up may use",
  })
  @IsOptional()
  @IsUUID()
  instance_id?: string;
}
