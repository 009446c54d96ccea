import type Form from '@rjsf/core';
import MuiForm from '@rjsf/mui';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { Ref } from 'react';
import { formValidator } from '../../features/detail/formValidator';

export interface SchemaFormProps {
  schema: RJSFSchema;
  uiSchema: UiSchema;
  formData: Record<string, unknown>;
  onChange: (values: Record<string, unknown>) => void;
  formRef: Ref<Form>;
}

/** react-jsonschema-form with the MUI theme; its own submit button is hidden (Save Settings validates it). */
export function SchemaForm({ schema, uiSchema, formData, onChange, formRef }: SchemaFormProps) {
  return (
    <MuiForm
      ref={formRef}
      schema={schema}
      uiSchema={{ ...uiSchema, 'ui:submitButtonOptions': { norender: true } }}
      formData={formData}
      validator={formValidator}
      onChange={(event) => onChange((event.formData ?? {}) as Record<string, unknown>)}
      showErrorList={false}
      // Errors show beside the fields; the default handler would also log them to the console.
      onError={() => undefined}
      noHtml5Validate
      tagName="div"
    />
  );
}
