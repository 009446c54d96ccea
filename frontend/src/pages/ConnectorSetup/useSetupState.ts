import type Form from '@rjsf/core';
import { useRef, useState } from 'react';
import {
  fromAdvancedJson,
  INVALID_JSON,
  toAdvancedJson,
  toDottedKeys,
} from '../../features/connectors/dottedKeys';
import { initialFormData } from '../../features/connectors/splitFormData';
import type { Connector, ConnectorInstance } from '../../api/connectors';
import { HeaderRow, headersToRows } from '../../features/detail/headersList';
import { initialStreams, streamChoices } from '../../features/detail/requestSettings';
import type { RequestOptionValues } from './RequestOptions';

type Values = Record<string, unknown>;

/** Everything the user edits on the setup screen, seeded from their instance (or the field defaults). */
export function useSetupState(connector: Connector, instance: ConnectorInstance | undefined) {
  const formRef = useRef<Form>(null);
  const [values, setValues] = useState<Values>(() => {
    const { override: _override, ...saved } = instance?.settings ?? {};
    return initialFormData(connector.schema?.fields, saved);
  });
  const [advanced, setAdvanced] = useState(false);
  const [jsonText, setJsonText] = useState('');
  const [jsonError, setJsonError] = useState<string | null>(null);
  const [auth, setAuth] = useState<Record<string, string>>({});
  const [headers, setHeaders] = useState<HeaderRow[]>(() => headersToRows(instance?.headers));
  const [options, setOptions] = useState<RequestOptionValues>(() => ({
    refreshInterval: String(instance?.refresh_interval ?? 0),
    override: instance?.settings?.override === true,
    method: instance?.method ?? 'GET',
    bodyTemplate: instance?.body_template ?? '',
    operationIds: initialStreams(instance?.operation_ids, streamChoices(connector.spec)),
  }));

  /** Form -> JSON shows the flat dotted-key values as nested JSON; JSON -> form is blocked by invalid JSON. */
  const toggleAdvanced = (): string | null => {
    if (!advanced) {
      setJsonText(toAdvancedJson(toDottedKeys(values)));
      setJsonError(null);
      setAdvanced(true);
      return null;
    }
    const parsed = fromAdvancedJson(jsonText);
    if (!parsed.ok) {
      setJsonError(INVALID_JSON);
      return INVALID_JSON;
    }
    setValues(parsed.nested);
    setAdvanced(false);
    return null;
  };

  /** The values as they stand now, from whichever editor is open; undefined for invalid JSON. */
  const currentValues = (): Values | undefined => {
    if (!advanced) return values;
    const parsed = fromAdvancedJson(jsonText);
    return parsed.ok ? parsed.nested : undefined;
  };

  const editJson = (text: string) => {
    setJsonText(text);
    setJsonError(null);
  };

  return {
    formRef,
    values,
    setValues,
    advanced,
    toggleAdvanced,
    jsonText,
    editJson,
    jsonError,
    auth,
    setAuth,
    headers,
    setHeaders,
    options,
    setOptions,
    currentValues,
  };
}

export type SetupState = ReturnType<typeof useSetupState>;
