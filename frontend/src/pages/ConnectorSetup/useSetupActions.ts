import { useState } from 'react';
import { refusalOr } from '../../api/client';
import { splitFormData } from '../../features/connectors/splitFormData';
import { useNotify } from '../../components/useNotify';
import {
  Connector,
  ConnectorInstance,
  useActivateConnector,
  useTestRead,
  useTriggerRun,
  useUpdateInstance,
} from '../../api/connectors';
import { rowsToHeaders } from '../../features/detail/headersList';
import {
  bodyTemplateError,
  iterationKeys,
  orderedStreams,
  parseRefreshInterval,
  PICK_A_STREAM,
  streamChoices,
} from '../../features/detail/requestSettings';
import type { SetupState } from './useSetupState';

export const CONNECT_FIRST = 'You need to connect first before saving settings.';

const filled = (values: Record<string, string>) =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value.trim()));

/**
 * Save Settings (connecting first when needed) and Run Now. A failure says one thing: the
 * server's reason for a refusal, or the screen's own text.
 */
export function useSetupActions(
  connector: Connector,
  instance: ConnectorInstance | undefined,
  state: SetupState,
) {
  const notify = useNotify();
  const activate = useActivateConnector();
  const update = useUpdateInstance();
  const trigger = useTriggerRun();
  const tryRead = useTestRead();
  const [runStartedAt, setRunStartedAt] = useState(0);
  const fields = connector.schema?.fields ?? [];
  const streams = streamChoices(connector.spec);

  /** The checked streams when the spec offers a choice; a spec with one operation runs it. */
  const streamsToSend = () =>
    streams.length > 0
      ? { operation_ids: orderedStreams(state.options.operationIds, instance?.operation_ids?.[0], streams) }
      : { operation_id: '' };

  /**
   * Settings (private fields split off into auth data, hidden and include:false ones left out) and
   * auth data to send, or undefined (with the reason shown) when something must be fixed first.
   */
  const valuesToSend = () => {
    const values = state.currentValues();
    if (!values) {
      notify('Invalid JSON – fix before saving.', 'error');
      return undefined;
    }
    if (!state.advanced && state.formRef.current && !state.formRef.current.validateForm()) return undefined;
    const split = splitFormData(fields, values);
    return {
      settings: { ...split.settings, override: state.options.override },
      authData: { ...split.auth_data, ...filled(state.auth) },
    };
  };

  const save = async () => {
    const toSend = valuesToSend();
    if (!toSend) return;
    const { settings, authData } = toSend;
    const interval = parseRefreshInterval(state.options.refreshInterval);
    const bodyError = bodyTemplateError(state.options.method, state.options.bodyTemplate);
    if (interval.error !== undefined || bodyError) return;
    if (streams.length > 0 && state.options.operationIds.length === 0) {
      notify(PICK_A_STREAM, 'error');
      return;
    }
    let instanceId = instance?.id;
    if (!instanceId) {
      try {
        const created = await activate.mutateAsync({
          connector_id: connector.id,
          settings,
          auth_data: authData,
        });
        instanceId = created.id;
        notify('Connected successfully.', 'success');
      } catch (error) {
        notify(refusalOr(error, 'Activation failed during save'), 'error');
        return;
      }
    }
    try {
      await update.mutateAsync({
        id: instanceId,
        update: {
          refresh_interval: interval.value ?? 0,
          settings,
          iterations: iterationKeys(settings),
          method: state.options.method,
          headers: rowsToHeaders(state.headers),
          body_template: state.options.method === 'POST' ? state.options.bodyTemplate : '',
          ...streamsToSend(),
          ...(Object.keys(authData).length ? { auth_data: authData } : {}),
        },
      });
      notify('Settings saved successfully.', 'success');
    } catch (error) {
      notify(refusalOr(error, 'Failed to save settings'), 'error');
    }
  };

  const run = () => {
    if (!instance) {
      notify(CONNECT_FIRST, 'error');
      return;
    }
    const toSend = valuesToSend();
    if (!toSend) return;
    trigger.mutate(
      // Credentials are not sent with a run: it uses the saved ones (Save Settings stores new ones).
      { id: instance.id, settings: toSend.settings },
      {
        onSuccess: () => {
          setRunStartedAt(Date.now());
          notify('Run triggered. This page shows the new data by itself once the run is done.', 'success');
        },
        onError: (error) => notify(refusalOr(error, 'Failed to trigger run'), 'error'),
      },
    );
  };

  /** Reads the first pages with the form's current values, writing nothing. */
  const testRead = () => {
    const toSend = valuesToSend();
    if (!toSend) return;
    const { override: _override, ...settings } = toSend.settings;
    tryRead.mutate(
      {
        ...(instance ? { instance_id: instance.id } : { connector_id: connector.id }),
        settings,
        auth_data: toSend.authData,
        // A test read tries one stream: the first one chosen, else the spec's first.
        operation_id: state.options.operationIds[0] || undefined,
      },
      {
        onError: (error) => notify(refusalOr(error, 'Test read failed'), 'error'),
      },
    );
  };

  return {
    save,
    run,
    testRead,
    testReading: tryRead.isPending,
    testReadResult: tryRead.data,
    saving: activate.isPending || update.isPending,
    triggering: trigger.isPending,
    runStartedAt,
  };
}
