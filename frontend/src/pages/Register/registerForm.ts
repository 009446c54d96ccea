export interface RegisterForm {
  name: string;
  email: string;
  password: string;
  acceptedTerms: boolean;
}

export const EMPTY_REGISTER_FORM: RegisterForm = { name: '', email: '', password: '', acceptedTerms: false };

/** The button stays disabled until name, e-mail, password and the terms checkbox are given. */
export function canSubmitRegistration(form: RegisterForm): boolean {
  return form.name.trim() !== '' && form.email.trim() !== '' && form.password !== '' && form.acceptedTerms;
}

/** What the server receives: the terms checkbox is a client rule only. */
export function registrationBody(form: RegisterForm) {
  return { name: form.name.trim(), email: form.email.trim(), password: form.password };
}
