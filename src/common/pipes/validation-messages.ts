import { BadRequestException } from '@nestjs/common';
import type { ValidationError } from 'class-validator';

const REQUIRED = /required/i;
/** Rules about what kind of value it is; when one fails, length or format rules only repeat it. */
const KIND_RULES = new Set([
  'isDefined',
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
  'isArray',
  'isObject',
]);

/**
 * The messages of one property: when a "… is required" rule failed, the value is missing or of the
 * wrong kind, and its length or format rules would only repeat that, so only the required
 * messages are kept; likewise a failed kind rule ("must be a string") hides the length rules.
 * Duplicates (two rules sharing one message) appear once.
 */
function propertyMessages(error: ValidationError): string[] {
  const constraints = Object.entries(error.constraints ?? {});
  const messages = constraints.map(([, message]) => message);
  const required = messages.filter((message) => REQUIRED.test(message));
  if (required.length > 0) return [...new Set(required)];
  const kind = constraints.filter(([rule]) => KIND_RULES.has(rule)).map(([, message]) => message);
  return [...new Set(kind.length > 0 ? kind : messages)];
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
