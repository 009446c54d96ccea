import { PartialType } from '@nestjs/swagger';
import { CreateOrganisationDto } from './create-organisation.dto';

/** Any of name, slug and logo; `logo_url: null` removes the logo. */
export class UpdateOrganisationDto extends PartialType(CreateOrganisationDto) {}
