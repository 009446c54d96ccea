import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useSession } from '../../auth/useSession';
import { TestReadResultView } from '../../components/TestReadResultView';
import { parseAuthFields } from '../../features/detail/authFields';
import type { Connector, ConnectorInstance } from '../../api/connectors';
import { hasRunningRun } from '../../features/detail/runs';
import { readsIncrementally, streamChoices } from '../../features/detail/requestSettings';
import { CredentialsSection } from './CredentialsSection';
import { HeadersEditor } from './HeadersEditor';
import { IncrementalReset } from './IncrementalReset';
import { RequestOptions } from './RequestOptions';
import { PublishTableButton } from '../Products/PublishTableButton';
import { RunHistory } from './RunHistory';
import { SettingsSection } from './SettingsSection';
import { TablePreview } from './TablePreview';
import { CONNECT_FIRST, useSetupActions } from './useSetupActions';
import { useRunWatch } from './useRunWatch';
import { useSetupState } from './useSetupState';

/** The tables the instance fills, its own first (older answers list only the one). */
function instanceTables(instance: ConnectorInstance | undefined) {
  if (!instance) return [];
  return instance.tables?.length
    ? instance.tables
    : [
        {
          operation_id: instance.operation_id,
          output_table_name: instance.output_table_name,
          readable_name: instance.readable_name,
          published_as: null,
        },
      ];
}

interface Props {
  connector: Connector;
  instance: ConnectorInstance | undefined;
}

/** The connector setup, shared by the detail screen (when connected) and /connector-setup/{id}. */
export function ConnectorSetupPanel({ connector, instance }: Props) {
  const { user } = useSession();
  const state = useSetupState(connector, instance);
  const actions = useSetupActions(connector, instance, state);
  const tables = instanceTables(instance);
  const runs = useRunWatch(
    instance?.id,
    tables.map((table) => table.output_table_name),
    actions.runStartedAt,
  );
  const running = hasRunningRun(runs.data);

  return (
    <Stack spacing={3}>
      <Paper
        variant="outlined"
        component="section"
        aria-labelledby="setup-heading"
        sx={{ p: { xs: 2, md: 3 } }}
      >
        <Typography id="setup-heading" variant="h5" component="h2" gutterBottom>
          Connector setup
        </Typography>
        <Stack spacing={3} divider={<Divider flexItem />}>
          <SettingsSection
            connector={connector}
            state={state}
            privateStored={!!instance?.has_auth_data}
            instanceId={instance?.id}
          />
          <CredentialsSection
            fields={parseAuthFields(connector.auth_fields)}
            values={state.auth}
            onChange={state.setAuth}
            stored={!!instance?.has_auth_data}
          />
          <Stack spacing={2.5}>
            <Typography variant="h6" component="h3">
              Request
            </Typography>
            <RequestOptions
              values={state.options}
              onChange={state.setOptions}
              intervalEditable={!!user?.pro_user}
              streams={streamChoices(connector.spec)}
            />
            <HeadersEditor rows={state.headers} onChange={state.setHeaders} />
          </Stack>
          <Stack spacing={1.5}>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
              <Button variant="contained" size="large" onClick={actions.save} disabled={actions.saving}>
                {actions.saving ? 'Saving…' : 'Save Settings'}
              </Button>
              <Button
                variant="outlined"
                size="large"
                onClick={actions.run}
                disabled={!instance || actions.triggering || running}
              >
                {running ? 'Running…' : 'Run Now'}
              </Button>
              <Button variant="text" size="large" onClick={actions.testRead} disabled={actions.testReading}>
                {actions.testReading ? 'Reading…' : 'Test Read'}
              </Button>
              {instance && readsIncrementally(connector.spec) && (
                <IncrementalReset instanceId={instance.id} />
              )}
            </Stack>
            {!instance && (
              <Typography variant="body2" color="text.secondary">
                {CONNECT_FIRST}
              </Typography>
            )}
          </Stack>
        </Stack>
      </Paper>
      {actions.testReadResult && <TestReadResultView result={actions.testReadResult} />}
      {instance && (
        <>
          {tables.map((table) => (
            <TablePreview
              key={table.output_table_name}
              tableName={table.output_table_name}
              readableName={table.readable_name}
              stream={tables.length > 1 ? (table.operation_id ?? undefined) : undefined}
              action={
                <PublishTableButton
                  instance={instance}
                  table={table}
                  namesStream={tables.length > 1}
                  size="medium"
                />
              }
            />
          ))}
          <RunHistory runs={runs.data} loading={runs.isPending} />
        </>
      )}
    </Stack>
  );
}
