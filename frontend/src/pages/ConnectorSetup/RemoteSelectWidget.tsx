import FormHelperText from '@mui/material/FormHelperText';
import type { WidgetProps } from '@rjsf/utils';
import { useEffect } from 'react';
import { useSelectOptions } from '../../api/connectors';
import { dependencyValues, isStaleChoice, selectChoices } from '../../features/connectors/remoteOptions';

/** What the setup form hands its widgets: which connector (and instance) the look-ups are for. */
export interface RemoteOptionsContext {
  connectorId: string;
  instanceId?: string;
  values: Record<string, unknown>;
}

/**
 * A select field whose options come from the connector's options_endpoint: loaded once the
 * fields it depends on are filled, and again whenever one of them changes.
 */
export function RemoteSelectWidget(props: WidgetProps) {
  const { options, registry, value, onChange, id } = props;
  const context = registry.formContext as RemoteOptionsContext;
  const field = String(options.field);
  const dependsOn = (options.dependsOn as string[] | undefined) ?? [];
  const dependencies = dependencyValues(dependsOn, context.values);
  const ready = dependencies.missing.length === 0;
  const query = useSelectOptions(context.connectorId, field, dependencies.values, context.instanceId, ready);

  // A station of another country is no choice any more: the field is emptied, not sent stale.
  const stale = isStaleChoice(query.data, value);
  useEffect(() => {
    if (stale) onChange(undefined);
  }, [stale, onChange]);

  const SelectWidget = registry.widgets.SelectWidget;
  const note = !ready
    ? `Choose ${dependencies.missing.join(', ')} first.`
    : query.isFetching
      ? 'Loading options…'
      : query.isError
        ? query.error.message
        : query.data?.length === 0
          ? 'No options available.'
          : undefined;
  return (
    <>
      <SelectWidget
        {...props}
        options={{ ...options, enumOptions: selectChoices(query.data, value) }}
        disabled={props.disabled || !ready}
      />
      {note && (
        <FormHelperText id={`${id}-options`} error={query.isError} role={query.isError ? 'alert' : 'status'}>
          {note}
        </FormHelperText>
      )}
    </>
  );
}
