import { canSubmitRegistration, EMPTY_REGISTER_FORM, registrationBody } from './registerForm';

const complete = { name: 'Ada', email: 'ada@example.com', password: 'long-enough', acceptedTerms: true };

describe('canSubmitRegistration', () => {
  it('allows sending once name, e-mail, password and the terms checkbox are given', () => {
    expect(canSubmitRegistration(complete)).toBe(true);
  });

  it('keeps the button disabled for an empty form', () => {
    expect(canSubmitRegistration(EMPTY_REGISTER_FORM)).toBe(false);
  });

  it.each([
    ['name', { ...complete, name: '' }],
    ['name (only spaces)', { ...complete, name: '   ' }],
    ['e-mail', { ...complete, email: '' }],
    ['password', { ...complete, password: '' }],
    ['terms checkbox', { ...complete, acceptedTerms: false }],
  ])('keeps the button disabled without the %s', (_missing, form) => {
    expect(canSubmitRegistration(form)).toBe(false);
  });
});

describe('registrationBody', () => {
  it('sends name, e-mail and password (trimmed, password as typed) and not the checkbox', () => {
    expect(
      registrationBody({ ...complete, name: ' Ada ', email: ' ada@example.com ', password: ' pass word ' }),
    ).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      password: ' pass word ',
    });
  });
});
