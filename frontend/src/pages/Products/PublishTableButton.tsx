import Button, { type ButtonProps } from '@mui/material/Button';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { ConnectorInstance } from '../../api/connectors';
import { PublishDialog } from './PublishDialog';

type InstanceTable = ConnectorInstance['tables'][number];

interface Props {
  instance: Pick<ConnectorInstance, 'id' | 'title'>;
  table: Pick<InstanceTable, 'readable_name' | 'output_table_name' | 'operation_id' | 'published_as'>;
  /** The connection fills several tables: the button and the first title name the stream. */
  namesStream: boolean;
  size?: ButtonProps['size'];
}

/**
 * "Publish" for one of a connection's tables, with its dialog; once the table is published, a
 * link to its listing instead (a table is published once). On Manage and on the setup screen.
 */
export function PublishTableButton({ instance, table, namesStream, size = 'small' }: Props) {
  const [open, setOpen] = useState(false);
  const subject =
    namesStream && table.operation_id ? `${instance.title} ${table.operation_id}` : instance.title;
  const listing = table.published_as;
  if (listing)
    return (
      <Button
        size={size}
        component={RouterLink}
        to={`/dataset_profile/${listing.id}`}
        aria-label={`View the listing “${listing.title}” of ${subject}`}
      >
        {namesStream && table.operation_id ? `View ${table.operation_id} listing` : 'View listing'}
      </Button>
    );
  return (
    <>
      <Button size={size} variant="outlined" onClick={() => setOpen(true)} aria-label={`Publish ${subject}`}>
        {namesStream && table.operation_id ? `Publish ${table.operation_id}` : 'Publish'}
      </Button>
      <PublishDialog
        target={
          open
            ? {
                instanceId: instance.id,
                table: table.readable_name,
                outputTableName: table.output_table_name,
                suggestedTitle: subject,
              }
            : null
        }
        onClose={() => setOpen(false)}
      />
    </>
  );
}
