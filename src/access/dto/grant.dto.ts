import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { OptionalNotNull } from '../../common/decorators/optional-not-null.decorator';
import { AssetIdDto } from './asset-id.dto';

/**
 * Body of access/grant and access/remove: the dataset, and the organisation it is got, bought or
 * removed for (left out: for the caller). An unknown organisation, or one the caller is not a
 * member of, answers 404.
 */
export class GrantDto extends AssetIdDto {
  @ApiPropertyOptional({ description: 'Id of an organisation the caller is an editor, admin or owner of' })
  @OptionalNotNull()
  @IsString({ message: 'organisationId must be a string' })
  @MaxLength(100, { message: 'organisationId must be at most 100 characters' })
  organisationId?: string;
}
