import { PartialType } from '@nestjs/swagger';
import { SaveQueryDto } from './save-query.dto';

/** Each field may be left out; sent as null it is refused like any other wrong value. */
export class UpdateSavedQueryDto extends PartialType(SaveQueryDto, { skipNullProperties: false }) {}
