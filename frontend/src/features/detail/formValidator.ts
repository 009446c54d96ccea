import type {
  ErrorSchema,
  RJSFSchema,
  RJSFValidationError,
  ValidationData,
  ValidatorType,
} from '@rjsf/utils';
import type { JsonSchema } from './settingsSchema';

/**
 * A validator for the schemas toFormSchema builds (objects, strings, numbers, booleans, dates,
 * option lists). The stock AJV validator compiles code with `new Function`, which the app's
 * Content-Security-Policy rightly forbids; these schemas are simple enough to check directly.
 */

export interface Problem {
  path: string[];
  message: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const isBlank = (value: unknown) => value === undefined || value === null || value === '';

export function findProblems(schema: JsonSchema, value: unknown, path: string[] = []): Problem[] {
  if (isBlank(value)) return [];
  if (schema.oneOf && !schema.oneOf.some((option) => option.const === value)) {
    return [{ path, message: 'Choose one of the options.' }];
  }
  switch (schema.type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
        ? []
        : [{ path, message: 'Enter a number.' }];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [{ path, message: 'Choose yes or no.' }];
    case 'string':
      if (typeof value !== 'string') return [{ path, message: 'Enter text.' }];
      return schema.format === 'date' && !DATE.test(value)
        ? [{ path, message: 'Enter a date (YYYY-MM-DD).' }]
        : [];
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value))
        return [{ path, message: 'Expected a group of values.' }];
      const record = value as Record<string, unknown>;
      const missing = (schema.required ?? [])
        .filter((key) => isBlank(record[key]))
        .map((key) => ({ path: [...path, key], message: 'This field is required.' }));
      const nested = Object.entries(schema.properties ?? {}).flatMap(([key, child]) =>
        findProblems(child, record[key], [...path, key]),
      );
      return [...missing, ...nested];
    }
    default:
      return [];
  }
}

/** Required fields of the top level still count when the whole form is empty. */
function problemsOf(schema: JsonSchema, formData: unknown): Problem[] {
  return findProblems(schema, schema.type === 'object' && isBlank(formData) ? {} : formData);
}

export function toErrorSchema(problems: Problem[]): ErrorSchema {
  const root: Record<string, unknown> = {};
  for (const problem of problems) {
    let node = root;
    for (const key of problem.path) node = (node[key] ??= {}) as Record<string, unknown>;
    ((node.__errors ??= []) as string[]).push(problem.message);
  }
  return root as ErrorSchema;
}

function toValidationErrors(problems: Problem[]): RJSFValidationError[] {
  return problems.map((problem) => {
    const property = problem.path.length ? `.${problem.path.join('.')}` : '';
    return { property, message: problem.message, stack: `${property || 'form'}: ${problem.message}` };
  });
}

export const formValidator: ValidatorType = {
  validateFormData(formData: unknown, schema: RJSFSchema): ValidationData<unknown> {
    const problems = problemsOf(schema as JsonSchema, formData);
    return { errors: toValidationErrors(problems), errorSchema: toErrorSchema(problems) };
  },
  isValid(schema: RJSFSchema, formData: unknown): boolean {
    return problemsOf(schema as JsonSchema, formData).length === 0;
  },
  rawValidation<Result>(schema: RJSFSchema, formData?: unknown) {
    return { errors: problemsOf(schema as JsonSchema, formData) as Result[] };
  },
};
