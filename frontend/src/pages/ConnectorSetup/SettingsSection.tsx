import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { useNotify } from '../../components/useNotify';
import type { Connector } from '../../api/connectors';
import { fromAdvancedJson } from '../../features/connectors/dottedKeys';
import { splitFormData } from '../../features/connectors/splitFormData';
import { flattenFields } from '../../features/connectors/fieldPaths';
import { undeclaredKeys, undeclaredKeysNote } from '../../features/connectors/undeclaredKeys';
import { declaredParams, emptyPathPlaceholders, previewUrl } from '../../features/connectors/urlPreview';
import { toFormSchema } from '../../features/detail/settingsSchema';
import { LazySchemaForm } from './LazySchemaForm';
import type { SetupState } from './useSetupState';

/** Schema-driven fields or, behind the Advanced toggle, the same settings as raw JSON; plus the URLs. */
export function SettingsSection({
  connector,
  state,
  privateStored,
  instanceId,
}: {
  connector: Connector;
  /** The user's instance, whose stored credentials option look-ups may use. */
  instanceId: string | undefined;
  state: SetupState;
  /** The instance holds the private values already; see toFormSchema. */
  privateStored: boolean;
}) {
  const notify = useNotify();
  const fields = connector.schema?.fields ?? [];
  const { schema, uiSchema } = toFormSchema(fields, state.values, { privateStored });
  const parsed = state.advanced ? fromAdvancedJson(state.jsonText) : undefined;
  // Private values stay out of the preview, as they stay out of settings.
  const previewSettings = splitFormData(fields, parsed?.ok ? parsed.nested : state.values).settings;
  const otherTemplates = [state.options.bodyTemplate, ...state.headers.map((header) => header.value)];
  const template = connector.fetch_url_template ?? '';
  const entries = flattenFields(fields);
  const declared = declaredParams(connector.spec, fields);
  const labelOf = (path: string) => entries.find((entry) => entry.path === path)?.field.label || path;
  const emptyInPath = emptyPathPlaceholders(template, previewSettings).map(labelOf);
  const undeclaredNote = parsed?.ok ? undeclaredKeysNote(undeclaredKeys(fields, parsed.nested)) : null;

  const toggle = () => {
    const error = state.toggleAdvanced();
    if (error) notify(error, 'error');
  };

  return (
    <Stack spacing={2.5}>
      <Stack
        direction="row"
        sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}
      >
        <Typography variant="h6" component="h3">
          Settings
        </Typography>
        <FormControlLabel
          control={<Switch checked={state.advanced} onChange={toggle} />}
          label="Advanced (JSON)"
        />
      </Stack>
      {state.advanced ? (
        <TextField
          label="Settings JSON"
          multiline
          minRows={8}
          value={state.jsonText}
          onChange={(event) => state.editJson(event.target.value)}
          error={!!state.jsonError}
          helperText={state.jsonError ?? undeclaredNote ?? 'Nested JSON: groups are objects.'}
          slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace', fontSize: 13 } } }}
        />
      ) : fields.length === 0 ? (
        <Typography color="text.secondary">This connector has no settings to fill.</Typography>
      ) : (
        <LazySchemaForm
          schema={schema as RJSFSchema}
          uiSchema={uiSchema as UiSchema}
          formData={state.values}
          onChange={state.setValues}
          formRef={state.formRef}
          optionsContext={{ connectorId: connector.id, instanceId }}
        />
      )}
      <TextField
        label="API URL template"
        value={connector.fetch_url_template ?? ''}
        slotProps={{
          input: { readOnly: true },
          htmlInput: { style: { fontFamily: 'monospace', fontSize: 13 } },
        }}
        multiline
      />
      <Box
        component="figure"
        aria-labelledby="final-url-label"
        sx={{ m: 0, p: 1.5, borderRadius: 1, bgcolor: 'action.hover', overflowWrap: 'anywhere' }}
      >
        <Typography id="final-url-label" variant="caption" component="figcaption" color="text.secondary">
          Final URL preview
        </Typography>
        <Typography component="code" sx={{ fontFamily: 'monospace', fontSize: 13 }}>
          {previewUrl(template, previewSettings, otherTemplates, declared)}
        </Typography>
        {emptyInPath.length > 0 && (
          <Typography variant="body2" color="warning.dark" role="status" sx={{ mt: 0.5 }}>
            {`Incomplete URL: fill ${emptyInPath.join(', ')}, part of the address.`}
          </Typography>
        )}
      </Box>
    </Stack>
  );
}
