import type Form from '@rjsf/core';
import MuiForm from '@rjsf/mui';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { Ref } from 'react';
import { formValidator } from '../../features/detail/formValidator';
import { REMOTE_SELECT_WIDGET } from '../../features/detail/settingsSchema';
import { RemoteOptionsContext, RemoteSelectWidget } from './RemoteSelectWidget';

const WIDGETS = { [REMOTE_SELECT_WIDGET]: RemoteSelectWidget };

export interface SchemaFormProps {
  schema: RJSFSchema;
  uiSchema: UiSchema;
  formData: Record<string, unknown>;
  onChange: (values: Record<string, unknown>) => void;
  formRef: Ref<Form>;
  /** For fields whose options are loaded from the connector's API. */
  optionsContext: Omit<RemoteOptionsContext, 'values'>;
}

/** react-jsonschema-form with the MUI theme; its own submit button is hidden (Save Settings validates it). */
export function SchemaForm({
  schema,
  uiSchema,
  formData,
  onChange,
  formRef,
  optionsContext,
}: SchemaFormProps) {
  const formContext: RemoteOptionsContext = { ...optionsContext, values: formData };
  return (
    <MuiForm
      ref={formRef}
      schema={schema}
      uiSchema={{ ...uiSchema, 'ui:submitButtonOptions': { norender: true } }}
      formData={formData}
      validator={formValidator}
      widgets={WIDGETS}
      formContext={formContext}
      onChange={(event) => onChange((event.formData ?? {}) as Record<string, unknown>)}
      showErrorList={false}
      // Errors show beside the fields; the default handler would also log them to the console.
      onError={() => undefined}
      noHtml5Validate
      tagName="div"
    />
  );
}
