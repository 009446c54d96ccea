import { registerDecorator, ValidationOptions } from 'class-validator';

/** An absolute http(s) URL, or a path on this site: one leading slash (`//host` would leave the site). */
export function isCoverImage(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 2048) return false;
  // White space, control characters and backslashes have no place in a URL and confuse browsers.
  if (
    /[\s\\]/.test(value) ||
    [...value].some((character) => character.charCodeAt(0) < 0x20 || character === '\u007f')
  ) {
    return false;
  }
  if (value.startsWith('/')) return !value.startsWith('//');
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export function IsCoverImage(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isCoverImage',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: 'Cover image must be an http(s) URL or a path on this site starting with /',
        ...options,
      },
      validator: { validate: isCoverImage },
    });
}
