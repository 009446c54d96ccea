import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { datasetDownloadUrl, datasetStreamUrl } from '../../api/stream';
import { useGenerateApiKey } from '../../api/users';
import { useSession } from '../../auth/useSession';
import { useNotify } from '../../components/useNotify';
import { queryPagePath } from '../../features/query/queryRules';
import { CopyLink } from '../Manage/CopyLink';

/**
 * For holders: downloads (CSV, JSON, Parquet, Excel) through the session, working at once; Query
 * opens the table in the SQL workspace; the stream links and
 * a curl / Power BI snippet by the table's readable name, which carry the personal API key
 * (created here on first need).
 */
export function HolderLinks({ assetId, tableName }: { assetId: string; tableName: string }) {
  const { user } = useSession();
  const apiKey = user?.api_key ?? '';
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
      <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap', rowGap: 1 }}>
        <Button variant="contained" href={datasetDownloadUrl(assetId, 'csv')} download>
          Download CSV
        </Button>
        <Button variant="outlined" href={datasetDownloadUrl(assetId, 'json')} download>
          Download JSON
        </Button>
        <Button variant="outlined" href={datasetDownloadUrl(assetId, 'parquet')} download>
          Download Parquet
        </Button>
        <Button variant="outlined" href={datasetDownloadUrl(assetId, 'xlsx')} download>
          Download Excel
        </Button>
        <Button variant="outlined" component={RouterLink} to={queryPagePath(tableName)}>
          Query
        </Button>
      </Stack>
      {/* CSV gives back every cell exactly as written, formula-like ones too: spreadsheets get the .xlsx. */}
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        To open the data in Excel or another spreadsheet, use Download Excel (.xlsx): there every cell is
        plain text. CSV keeps cells exactly as written, so a cell such as =HYPERLINK(…) could run as a formula
        if a spreadsheet opens the CSV.
      </Typography>
      {apiKey ? (
        <StreamLinks tableName={tableName} apiKey={apiKey} />
      ) : (
        <CreateKey email={user?.email ?? ''} />
      )}
    </Paper>
  );
}

/** The first key needs no confirmation: no link uses one yet. */
function CreateKey({ email }: { email: string }) {
  const generate = useGenerateApiKey();
  const notify = useNotify();
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
      <Typography color="text.secondary">
        Stream links for Power BI, Excel or curl carry your personal API key. You have none yet.
      </Typography>
      <Button
        variant="outlined"
        disabled={generate.isPending}
        onClick={() =>
          generate.mutate(email, {
            onSuccess: () => notify('API Key generated!', 'success'),
            onError: () => notify('Failed to generate API key', 'error'),
          })
        }
      >
        Create my API key
      </Button>
    </Stack>
  );
}

function StreamLinks({ tableName, apiKey }: { tableName: string; apiKey: string }) {
  const json = datasetStreamUrl(tableName, apiKey);
  const csv = datasetStreamUrl(tableName, apiKey, 'csv');
  return (
    <Stack spacing={1}>
      <CopyLink label="JSON stream link" url={json} />
      <CopyLink label="CSV stream link" url={csv} />
      <CopyLink label="Parquet link" url={datasetStreamUrl(tableName, apiKey, 'parquet')} />
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
  );
}
