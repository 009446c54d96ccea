import { ApiProperty } from '@nestjs/swagger';

/** The answer of POST connectors/instance/{id}/publish. */
export class PublishedProduct {
  @ApiProperty({ description: 'The new dataset' })
  id: string;

  @ApiProperty({ example: '/dataset_profile/0b6e…' })
  redirectUrl: string;
}

/** The answer of the owner's schema-change decisions. */
export class ProductMessage {
  @ApiProperty()
  message: string;

  @ApiProperty({ description: 'The dataset' })
  id: string;
}
