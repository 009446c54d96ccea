import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength } from 'class-validator';

/** Body of access/grant and access/remove. Any string is accepted; an unknown id answers 404. */
export class AssetIdDto {
  @ApiProperty({ description: 'Id of the dataset' })
  @IsDefined({ message: 'assetId is required' })
  @IsString({ message: 'assetId must be a string' })
  @MaxLength(100, { message: 'assetId must be at most 100 characters' })
  assetId: string;
}
