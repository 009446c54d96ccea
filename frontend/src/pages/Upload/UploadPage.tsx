import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useSearchParams } from 'react-router-dom';
import { UploadConnectorTab } from './UploadConnectorTab';
import { UploadDatasetTab } from './UploadDatasetTab';

const TABS = [
  { key: 'dataset', label: 'Upload Dataset' },
  { key: 'connector', label: 'Upload Connector' },
] as const;

/** /upload (login required): tabs Upload Dataset and Upload Connector; ?tab=connector opens the second. */
export function UploadPage() {
  const [params, setParams] = useSearchParams();
  const current = params.get('tab') === 'connector' ? 'connector' : 'dataset';
  return (
    <Container maxWidth="md" sx={{ py: { xs: 3, md: 5 } }}>
      <Typography variant="h2" component="h1" gutterBottom>
        Upload & Create
      </Typography>
      <Paper variant="outlined">
        <Tabs
          value={current}
          onChange={(_event, key: string) =>
            setParams(key === 'dataset' ? {} : { tab: key }, { replace: true })
          }
          variant="fullWidth"
          aria-label="Upload type"
        >
          {TABS.map((tab) => (
            <Tab
              key={tab.key}
              value={tab.key}
              label={tab.label}
              id={`upload-tab-${tab.key}`}
              aria-controls={`upload-panel-${tab.key}`}
            />
          ))}
        </Tabs>
        {TABS.map((tab) => (
          <Box
            key={tab.key}
            role="tabpanel"
            id={`upload-panel-${tab.key}`}
            aria-labelledby={`upload-tab-${tab.key}`}
            hidden={current !== tab.key}
            sx={{ p: { xs: 2, md: 3 } }}
          >
            {current === tab.key && (tab.key === 'dataset' ? <UploadDatasetTab /> : <UploadConnectorTab />)}
          </Box>
        ))}
      </Paper>
    </Container>
  );
}
