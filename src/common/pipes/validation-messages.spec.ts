import type { ValidationError } from 'class-validator';
import { validationException, validationMessages } from './validation-messages';

function failure(
  property: string,
  constraints: Record<string, string>,
  children: ValidationError[] = [],
): ValidationError {
  return { property, constraints, children };
}

describe('validationMessages', () => {
  it('keeps only the required message of a missing property', () => {
    const errors = [
      failure('name', {
        maxLength: 'Name must be at most 200 characters',
        isNotEmpty: 'Name is required',
        isString: 'Name is required',
      }),
    ];
    expect(validationMessages(errors)).toEqual(['Name is required']);
  });

  it('keeps every distinct message of a property whose value is present but wrong', () => {
    const errors = [
      failure('email', {
        isEmail: 'Please enter a valid email address',
        maxLength: 'Please enter a valid email address',
      }),
      failure('password', { minLength: 'Password must be at least 8 characters long' }),
    ];
    expect(validationMessages(errors)).toEqual([
      'Please enter a valid email address',
      'Password must be at least 8 characters long',
    ]);
  });

  it('prefixes the messages of nested objects with the parent property', () => {
    const errors = [failure('settings', {}, [failure('city', { isString: 'city must be a string' })])];
    expect(validationMessages(errors)).toEqual(['settings.city must be a string']);
  });
});

describe('validationException', () => {
  it('answers 400 with the messages as a list', () => {
    const exception = validationException([failure('title', { isNotEmpty: 'Title is required' })]);
    expect(exception.getStatus()).toBe(400);
    expect(exception.getResponse()).toMatchObject({ message: ['Title is required'] });
  });
});
