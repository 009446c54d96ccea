import { registerDecorator, ValidationArguments } from 'class-validator';

export interface RequiredTextRule {
  /** Field name as users read it ("Title"). */
  label: string;
  maxLength: number;
  pattern?: RegExp;
  patternMessage?: string;
}

function problemOf(value: unknown, rule: RequiredTextRule): string | undefined {
  if (value === undefined || value === null || value === '') return `${rule.label} is required`;
  if (typeof value !== 'string') return `${rule.label} must be text`;
  if (value.length > rule.maxLength) return `${rule.label} must be at most ${rule.maxLength} characters`;
  if (rule.pattern && !rule.pattern.test(value)) return rule.patternMessage ?? `${rule.label} is not valid`;
  return undefined;
}

/**
 * A required text field checked as one rule, so a client sees the one reason that applies
 * ("Title is required") rather than a list of every constraint the empty value breaks.
 */
export function RequiredText(rule: RequiredTextRule): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'requiredText',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => problemOf(value, rule) === undefined,
        defaultMessage: (args?: ValidationArguments) => problemOf(args?.value, rule) ?? '',
      },
    });
}
