import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { QUERY_MAX_LENGTH } from '../../dto/run-query.dto';

export const SAVED_QUERY_NAME_MAX_LENGTH = 100;

export class SaveQueryDto {
  @ApiProperty({ maxLength: SAVED_QUERY_NAME_MAX_LENGTH, description: 'Unique among your saved queries' })
  @IsString({ message: 'A name is required' })
  @Matches(/\S/, { message: 'A name is required' })
  @MaxLength(SAVED_QUERY_NAME_MAX_LENGTH, {
    message: `A name has at most ${SAVED_QUERY_NAME_MAX_LENGTH} characters`,
  })
  name: string;

  @ApiProperty({ maxLength: QUERY_MAX_LENGTH })
  @IsString({ message: 'The SQL is required' })
  @Matches(/\S/, { message: 'The SQL is required' })
  @MaxLength(QUERY_MAX_LENGTH, { message: `A query has at most ${QUERY_MAX_LENGTH} characters` })
  sql: string;
}
