import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { SavedQuery, useDeleteSavedQuery, useSavedQueries } from '../../api/query';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useNotify } from '../../components/useNotify';

/** The caller's saved queries: one click puts a query in the editor. */
export function SavedQueriesPanel({ onOpen }: { onOpen: (sql: string) => void }) {
  const saved = useSavedQueries();
  const remove = useDeleteSavedQuery();
  const notify = useNotify();
  const [deleting, setDeleting] = useState<SavedQuery | null>(null);
  if (saved.isPending) return <Typography color="text.secondary">Loading…</Typography>;
  if (saved.error) return <Typography color="error">Saved queries could not be loaded.</Typography>;
  if (saved.data.length === 0)
    return <Typography color="text.secondary">No saved queries yet: use Save beside Run.</Typography>;
  return (
    <>
      <List dense aria-label="Saved queries" disablePadding>
        {saved.data.map((query) => (
          <ListItem
            key={query.id}
            disablePadding
            secondaryAction={
              <IconButton edge="end" aria-label={`Delete ${query.name}`} onClick={() => setDeleting(query)}>
                <DeleteOutlined />
              </IconButton>
            }
          >
            <ListItemButton onClick={() => onOpen(query.sql)}>
              <ListItemText
                primary={query.name}
                secondary={query.sql}
                slotProps={{ secondary: { noWrap: true, sx: { fontFamily: 'monospace' } } }}
              />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
      <ConfirmDialog
        open={!!deleting}
        title="Delete saved query?"
        message={`“${deleting?.name ?? ''}” will be gone for good.`}
        confirmLabel="Delete"
        destructive
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => setDeleting(null),
            onError: () => notify('Failed to delete the saved query', 'error'),
          })
        }
      />
    </>
  );
}
