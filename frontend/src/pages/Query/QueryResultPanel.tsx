import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { refusalOr } from '../../api/client';
import { DownloadFormat, downloadQueryResult, QueryResult } from '../../api/query';
import { useNotify } from '../../components/useNotify';
import { resultSummary, truncationNotice } from '../../features/query/queryRules';
import { ResultChart } from './ResultChart';
import { ResultGrid } from './ResultGrid';

const DOWNLOADS: Array<[DownloadFormat, string]> = [
  ['csv', 'CSV'],
  ['json', 'JSON'],
  ['parquet', 'Parquet'],
  ['xlsx', 'Excel'],
];

/** A result: count and time, the truncation notice, downloads of the whole result, and grid or chart. */
export function QueryResultPanel({ result, sql }: { result: QueryResult; sql: string }) {
  const [view, setView] = useState<'grid' | 'chart'>('grid');
  const [downloading, setDownloading] = useState<DownloadFormat | null>(null);
  const notify = useNotify();
  const download = async (format: DownloadFormat) => {
    setDownloading(format);
    try {
      await downloadQueryResult(sql, format);
    } catch (error) {
      notify(refusalOr(error, 'The download failed'), 'error');
    } finally {
      setDownloading(null);
    }
  };
  return (
    <Paper variant="outlined" component="section" aria-label="Result" sx={{ p: { xs: 1.5, md: 2 } }}>
      <Stack spacing={1.5}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
        >
          <Typography role="status" aria-label="Result summary">
            {resultSummary(result.row_count, result.elapsed_ms)}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
            {DOWNLOADS.map(([format, label]) => (
              <Button
                key={format}
                size="small"
                variant="outlined"
                onClick={() => void download(format)}
                disabled={!!downloading}
              >
                {downloading === format ? 'Downloading…' : `Download ${label}`}
              </Button>
            ))}
          </Stack>
        </Stack>
        {result.truncated && <Alert severity="info">{truncationNotice(result.row_count)}</Alert>}
        {result.error && <Alert severity="error">{result.error}</Alert>}
        <Tabs
          value={view}
          onChange={(_event, next: 'grid' | 'chart') => setView(next)}
          aria-label="Result view"
        >
          <Tab label="Table" value="grid" />
          <Tab label="Chart" value="chart" />
        </Tabs>
        {view === 'grid' ? <ResultGrid result={result} /> : <ResultChart result={result} />}
      </Stack>
    </Paper>
  );
}
