import { BadRequestException } from '@nestjs/common';
import type { ValidationError } from 'class-validator';

const REQUIRED = /required/i;

/**
 * The messages of one property: when a "… is required" rule failed, the value is missing or of the
 * wrong kind, and its length or format rules would only repeat that, so only the required
 * messages are kept. Duplicates (two rules sharing one message) appear once.
 */
function propertyMessages(error: ValidationError): string[] {
  const messages = Object.values(error.constraints ?? {});
  const required = messages.filter((message) => REQUIRED.test(message));
  return [...new Set(required.length > 0 ? required : messages)];
}

/** Every message of a validation failure, nested DTOs prefixed with their parent property as Nest does. */
export function validationMessages(errors: ValidationError[], parentPath = ''): string[] {
  return errors.flatMap((error) => {
    const own = propertyMessages(error).map((message) => (parentPath ? `${parentPath}.${message}` : message));
    const path = parentPath ? `${parentPath}.${error.property}` : error.property;
    return [...own, ...validationMessages(error.children ?? [], path)];
  });
}

/** The global ValidationPipe's exceptionFactory: a 400 whose `errors` list reads like a person wrote it. */
export function validationException(errors: ValidationError[]): BadRequestException {
  return new BadRequestException([...new Set(validationMessages(errors))]);
}
