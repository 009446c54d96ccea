import { ValidateIf } from 'class-validator';

/**
 * A field that may be left out but not sent as null: unlike @IsOptional, null goes on to the
 * field's validators and is refused with the field named, instead of reaching a NOT NULL column.
 */
export function OptionalNotNull(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined);
}
