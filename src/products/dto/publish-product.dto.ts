import { ApiProperty, OmitType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { UpdateAssetDto } from '../../assets/dto/update-asset.dto';
import { toTrimmedText } from '../../assets/dto/upload-csv.dto';

/**
 * `POST connectors/instance/{id}/publish`: one of the connection's tables as a dataset listing,
 * described with the fields and rules of an upload (the source is the connection).
 */
export class PublishProductDto extends OmitType(UpdateAssetDto, ['title', 'source'] as const) {
  @ApiProperty({
    description: "The table to publish: the readable_name of one of the connection's tables",
    example: 'weather_daily',
    maxLength: 200,
  })
  @Transform(toTrimmedText)
  @IsString({ message: 'Choose the table to publish' })
  @IsNotEmpty({ message: 'Choose the table to publish' })
  @MaxLength(200)
  table: string;

  @ApiProperty({ maxLength: 200 })
  @Transform(toTrimmedText)
  @IsString({ message: 'Title is required' })
  @IsNotEmpty({ message: 'Title is required' })
  @MaxLength(200)
  title: string;
}
