import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { datasetStreamUrl } from '../../api/stream';
import { useSession } from '../../auth/useSession';
import { CopyLink } from '../Manage/CopyLink';

const KEY_PLACEHOLDER = 'YOUR_API_KEY';

/**
 * For holders: downloads (CSV, JSON, Parquet, Excel), the stream links and a curl / Power BI snippet, all by the
 * table's readable name.
 */
export function HolderLinks({ tableName }: { tableName: string }) {
  const { user } = useSession();
  const apiKey = user?.api_key || KEY_PLACEHOLDER;
  const json = datasetStreamUrl(tableName, apiKey);
  const csv = datasetStreamUrl(tableName, apiKey, 'csv');
  const parquet = datasetStreamUrl(tableName, apiKey, 'parquet');
  const xlsx = datasetStreamUrl(tableName, apiKey, 'xlsx');
  const hasKey = Boolean(user?.api_key);
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="links-heading"
      sx={{ p: { xs: 2, md: 3 } }}
    >
      <Typography id="links-heading" variant="h5" component="h2" gutterBottom>
        Download and stream
      </Typography>
      {!hasKey && (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          The links need your personal API key:{' '}
          <RouterLink to="/manage?tab=stream">generate it under Manage → Stream</RouterLink>.
        </Typography>
      )}
      <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap', rowGap: 1 }}>
        <Button variant="contained" href={csv} disabled={!hasKey} download>
          Download CSV
        </Button>
        <Button variant="outlined" href={json} disabled={!hasKey} download>
          Download JSON
        </Button>
        <Button variant="outlined" href={parquet} disabled={!hasKey} download>
          Download Parquet
        </Button>
        <Button variant="outlined" href={xlsx} disabled={!hasKey} download>
          Download Excel
        </Button>
      </Stack>
      <Stack spacing={1}>
        <CopyLink label="JSON stream link" url={json} />
        <CopyLink label="CSV stream link" url={csv} />
        <CopyLink label="Parquet link" url={parquet} />
        <Typography variant="subtitle2" component="h3" sx={{ pt: 1 }}>
          curl (add filter=column:operator:value to narrow the rows)
        </Typography>
        <CopyLink label="curl command" url={`curl -o ${tableName}.csv "${csv}&filter=column:gte:10"`} />
        <Typography variant="subtitle2" component="h3" sx={{ pt: 1 }}>
          Power BI (Get data → Blank query → Advanced editor)
        </Typography>
        <CopyLink
          label="Power BI query"
          url={`let Source = Csv.Document(Web.Contents("${csv}"), [Delimiter=",", Encoding=65001]), Promoted = Table.PromoteHeaders(Source) in Promoted`}
        />
      </Stack>
    </Paper>
  );
}
