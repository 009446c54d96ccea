import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

/** `POST assets/{id}/move`: the organisation a personal dataset moves into. */
export class MoveAssetDto {
  @ApiProperty({ format: 'uuid', description: 'An organisation the caller is an editor, admin or owner of' })
  @IsUUID('all', { message: 'organisation_id must be an organisation id' })
  organisation_id: string;
}
