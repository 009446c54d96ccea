import { PartialType } from '@nestjs/swagger';
import { CreateOrganisationDto } from './create-organisation.dto';

/**
 * Any of name, slug and logo; `logo_url: null` removes the logo. Name and slug may be left out,
 * but sent as null they are refused like any other wrong value.
 */
export class UpdateOrganisationDto extends PartialType(CreateOrganisationDto, {
  skipNullProperties: false,
}) {}
