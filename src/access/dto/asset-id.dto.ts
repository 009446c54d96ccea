import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

/** Body of access/grant and access/remove. Any string is accepted; an unknown id answers 404. */
export class AssetIdDto {
  @ApiProperty({ description: 'Id of the dataset' })
  @IsString()
  @MaxLength(100)
  assetId: string;
}
