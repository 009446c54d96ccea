import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { AssetDetail, ColumnProfile } from '../../api/assets';
import { sharePercent } from '../../features/detail/detailRules';
import { formatBytes } from '../../features/manage/ownerRules';
import { TableName } from '../Manage/TableName';
import { FactList } from './FactList';

/**
 * What a buyer gets, shown to everyone before they get it: rows, size, last update, license,
 * the table's readable name, every column with its type, description (the data dictionary) and profile
 * (a live dataset's columns added since publishing marked New), and the loads.
 */
export function DatasetProduct({ asset, newColumns = [] }: { asset: AssetDetail; newColumns?: string[] }) {
  const isNew = new Set(newColumns);
  const facts: Array<[string, string]> = [
    ['Rows', asset.row_count.toLocaleString()],
    ['Columns', String(asset.columns.length)],
    ['Size', formatBytes(asset.byte_count)],
    ['Last updated', new Date(asset.data_updated_at).toLocaleDateString()],
    ['License', asset.licence || 'Not stated'],
  ];
  const profiles = new Map(asset.profile.map((profile) => [profile.name, profile]));
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="product-heading"
      sx={{ p: { xs: 2, md: 3 } }}
    >
      <Typography id="product-heading" variant="h5" component="h2" gutterBottom>
        What you get
      </Typography>
      <FactList facts={facts} label="Dataset facts" />
      <Box sx={{ mb: 3 }}>
        <TableName name={asset.readable_name} />
        <Typography variant="caption" color="text.secondary">
          The name of this table in the OData feed, stream links and downloaded files.
        </Typography>
      </Box>
      <Typography component="h3" variant="h6" gutterBottom>
        Data dictionary
      </Typography>
      <TableContainer sx={{ mb: 3 }}>
        <Table size="small" aria-label="Data dictionary">
          <TableHead>
            <TableRow>
              <TableCell>Column</TableCell>
              <TableCell sx={WIDE_ONLY}>Type</TableCell>
              <TableCell>Description</TableCell>
              <TableCell sx={{ ...WIDE_ONLY, minWidth: 180 }}>Profile</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {asset.columns.map((column) => (
              <TableRow key={column.name}>
                <TableCell sx={{ fontWeight: 600, overflowWrap: 'anywhere', verticalAlign: 'top' }}>
                  {column.label}
                  {isNew.has(column.name) && (
                    <Chip size="small" color="success" variant="outlined" label="New" sx={{ ml: 1 }} />
                  )}
                  <Typography variant="caption" component="div" color="text.secondary" sx={NARROW_ONLY}>
                    {column.type}
                  </Typography>
                </TableCell>
                <TableCell sx={WIDE_ONLY}>{column.type}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere', verticalAlign: 'top' }}>
                  {asset.dictionary[column.name] ?? (
                    <Typography component="span" color="text.secondary">
                      —
                    </Typography>
                  )}
                  <Box sx={{ ...NARROW_ONLY, mt: 1 }}>
                    <ProfileCell
                      profile={profiles.get(column.name)}
                      rows={asset.row_count}
                      pending={asset.profile_pending}
                    />
                  </Box>
                </TableCell>
                <TableCell sx={WIDE_ONLY}>
                  <ProfileCell
                    profile={profiles.get(column.name)}
                    rows={asset.row_count}
                    pending={asset.profile_pending}
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <Typography component="h3" variant="h6" gutterBottom>
        Versions
      </Typography>
      <Box component="ol" aria-label="Versions" sx={{ pl: 3, m: 0 }}>
        {asset.versions.map((version) => (
          <li key={`${version.loaded_at}-${version.mode}`}>
            <Typography variant="body2">
              {new Date(version.loaded_at).toLocaleString()} · {versionLabel(version.mode)} ·{' '}
              {version.row_count.toLocaleString()} {version.row_count === 1 ? 'row' : 'rows'} ·{' '}
              {formatBytes(version.byte_count)}
              {version.loaded_by ? ` · by ${version.loaded_by}` : ''}
            </Typography>
          </li>
        ))}
      </Box>
    </Paper>
  );
}

// Phones get two columns: the type under the name, the profile under the description.
const WIDE_ONLY = { display: { xs: 'none', md: 'table-cell' } } as const;
const NARROW_ONLY = { display: { xs: 'block', md: 'none' } } as const;

function versionLabel(mode: string): string {
  return mode === 'initial' ? 'First upload' : mode === 'replace' ? 'Replaced' : 'Appended';
}

/** A column's profile as small charts: the filled share as a bar, ranges or the top values as bars. */
function ProfileCell({
  profile,
  rows,
  pending,
}: {
  profile?: ColumnProfile;
  rows: number;
  pending: boolean;
}) {
  // The stored figures describe the rows before the latest load: none rather than wrong ones.
  if (pending) return <Typography color="text.secondary">Being computed for the latest rows…</Typography>;
  if (!profile) return <Typography color="text.secondary">—</Typography>;
  const filled = Math.round((1 - profile.nullShare) * 100);
  const top = profile.topValues ?? [];
  const most = top[0]?.count ?? 1;
  return (
    <Box sx={{ minWidth: { md: 160 } }}>
      <Typography variant="caption" component="div">
        {filled}% filled · {profile.distinctCount.toLocaleString()} distinct
      </Typography>
      <LinearProgress
        variant="determinate"
        value={filled}
        aria-label={`${filled}% filled`}
        sx={{ height: 6, borderRadius: 1, mb: 0.5 }}
      />
      {!!profile.emptyStringShare && (
        <Typography variant="caption" component="div" color="text.secondary">
          {sharePercent(profile.emptyStringShare)} empty text ("")
        </Typography>
      )}
      {profile.min !== undefined && (
        <Typography variant="caption" component="div" color="text.secondary">
          {String(profile.min ?? '—')} … {String(profile.max ?? '—')}
        </Typography>
      )}
      {top.map((entry) => (
        <Box key={entry.value} sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
          <Box
            aria-hidden
            sx={{
              height: 6,
              borderRadius: 1,
              bgcolor: 'secondary.main',
              width: `${Math.max(4, (entry.count / most) * 60)}px`,
              flex: 'none',
            }}
          />
          <Typography variant="caption" sx={{ overflowWrap: 'anywhere' }}>
            {entry.value} ({rows ? Math.round((entry.count / rows) * 100) : 0}%)
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
