import { PartialType } from '@nestjs/swagger';
import { SaveQueryDto } from './save-query.dto';

export class UpdateSavedQueryDto extends PartialType(SaveQueryDto) {}
