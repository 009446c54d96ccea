import { registerDecorator, ValidationOptions } from 'class-validator';

export const LOGO_URL_MAX_LENGTH = 2048;

/**
 * An absolute https URL and nothing else: the logo is shown on pages served over https, and a
 * `javascript:` or `data:` value must never reach an <img> or a link.
 */
export function isLogoUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > LOGO_URL_MAX_LENGTH) return false;
  if (/[\s\\]/.test(value) || [...value].some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f')) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

export function IsLogoUrl(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isLogoUrl',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: 'Logo must be an https URL', ...options },
      validator: { validate: (value: unknown) => value === null || isLogoUrl(value) },
    });
}
