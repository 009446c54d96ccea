import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FormEvent, useState } from 'react';
import { descriptionAdvice, LicenceField } from '../../../components/LicenceField';
import { AssetDetail, useAssetDetail, useUpdateAsset } from '../../../api/assets';
import { useNotify } from '../../../components/useNotify';
import { trialDaysProblem } from '../../../features/subscriptions/subscriptionText';
import { ownerErrorText } from './ownerErrors';
import { Pricing, PricingFields } from './PricingFields';

interface Form {
  title: string;
  description: string;
  category: string;
  keywords: string;
  pricing: Pricing;
  isPublic: boolean;
  source: string;
  licence: string;
  image: string;
  dictionary: Record<string, string>;
}

function formOf(asset: AssetDetail): Form {
  return {
    title: asset.title,
    description: asset.description,
    category: asset.category,
    keywords: asset.keywords.join(', '),
    pricing: {
      price: String(asset.price),
      billing: asset.billing_interval ?? 'one_off',
      trialDays: asset.trial_days ? String(asset.trial_days) : '',
    },
    isPublic: asset.is_public,
    source: asset.source,
    licence: asset.licence,
    image: asset.image ?? '',
    dictionary: Object.fromEntries(
      asset.columns.map((column) => [column.name, asset.dictionary[column.name] ?? '']),
    ),
  };
}

/** The owner edits a dataset's description and data dictionary; the server applies the upload's rules. */
export function EditDatasetDialog(props: { id: string; open: boolean; onClose: () => void }) {
  // Mounted only while open, so every opening starts from the dataset as it is now.
  return props.open ? <EditForm {...props} /> : null;
}

function EditForm({ id, open, onClose }: { id: string; open: boolean; onClose: () => void }) {
  const asset = useAssetDetail(id);
  const update = useUpdateAsset(id);
  const notify = useNotify();
  const [form, setForm] = useState<Form | null>(asset.data ? formOf(asset.data) : null);
  // The detail may arrive after the dialog opened (from Manage): fill the form once it does.
  if (!form && asset.data) setForm(formOf(asset.data));

  const set = (changes: Partial<Form>) =>
    setForm((current) => (current ? { ...current, ...changes } : current));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!form) return;
    update.mutate(
      {
        title: form.title,
        description: form.description,
        category: form.category,
        keywords: form.keywords
          .split(',')
          .map((word) => word.trim())
          .filter(Boolean),
        price: form.pricing.price.trim() === '' ? '0' : form.pricing.price.trim(),
        billing_interval: form.pricing.billing,
        ...(form.pricing.billing === 'one_off' ? {} : { trial_days: Number(form.pricing.trialDays || 0) }),
        is_public: form.isPublic,
        source: form.source,
        licence: form.licence,
        image: form.image.trim() === '' ? null : form.image.trim(),
        dictionary: form.dictionary,
      },
      {
        onSuccess: () => {
          notify('Dataset saved.', 'success');
          onClose();
        },
      },
    );
  };

  return (
    <Dialog
      open={open}
      onClose={update.isPending ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="edit-dataset-title"
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id="edit-dataset-title">Edit dataset</DialogTitle>
        <DialogContent dividers>
          {!form ? (
            <Typography color="text.secondary">Loading…</Typography>
          ) : (
            <Stack spacing={2}>
              {update.error && <Alert severity="error">{ownerErrorText(update.error)}</Alert>}
              <TextField
                label="Title"
                required
                value={form.title}
                onChange={(event) => set({ title: event.target.value })}
                slotProps={{ htmlInput: { maxLength: 200 } }}
              />
              <TextField
                label="Description"
                multiline
                minRows={3}
                value={form.description}
                onChange={(event) => set({ description: event.target.value })}
                helperText={descriptionAdvice(form.description)}
              />
              <TextField
                label="Category"
                value={form.category}
                onChange={(event) => set({ category: event.target.value })}
              />
              <PricingFields
                value={form.pricing}
                onChange={(changes) => set({ pricing: { ...form.pricing, ...changes } })}
              />
              <TextField
                label="Keywords"
                value={form.keywords}
                onChange={(event) => set({ keywords: event.target.value })}
                helperText="Separated by commas"
              />
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  label="Source"
                  fullWidth
                  value={form.source}
                  onChange={(event) => set({ source: event.target.value })}
                />
                <LicenceField value={form.licence} onChange={(licence) => set({ licence })} />
              </Stack>
              <TextField
                label="Image URL"
                value={form.image}
                onChange={(event) => set({ image: event.target.value })}
                helperText="An http(s) address or a path on this site"
              />
              <FormControlLabel
                control={
                  <Switch
                    checked={form.isPublic}
                    onChange={(event) => set({ isPublic: event.target.checked })}
                  />
                }
                label={form.isPublic ? 'Public' : 'Private'}
              />
              <Typography variant="subtitle1" component="h3">
                Data dictionary
              </Typography>
              {asset.data?.columns.map((column) => (
                <TextField
                  key={column.name}
                  label={`${column.label} (${column.type})`}
                  size="small"
                  value={form.dictionary[column.name] ?? ''}
                  onChange={(event) =>
                    set({ dictionary: { ...form.dictionary, [column.name]: event.target.value } })
                  }
                  slotProps={{ htmlInput: { maxLength: 2000 } }}
                />
              ))}
            </Stack>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={update.isPending}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={!form || update.isPending || !!trialDaysProblem(form.pricing.trialDays)}
          >
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
