import Search from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { DataAppCard } from './DataAppCard';
import { APP_CATEGORIES, AppCategory, DATA_APPS, filterApps } from './data-apps';

export function DataAppsPage() {
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<AppCategory>('All');
  const apps = filterApps(DATA_APPS, search, category);

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 5, md: 8 } }}>
      <Typography variant="h2" component="h1" gutterBottom>
        Data Apps
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        Ready-made apps that turn marketplace data into answers.
      </Typography>
      <TextField
        type="search"
        label="Search apps"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        fullWidth
        sx={{ maxWidth: 480, mb: 2 }}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <Search aria-hidden />
              </InputAdornment>
            ),
          },
        }}
      />
      <Box role="group" aria-label="Category" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 4 }}>
        {APP_CATEGORIES.map((name) => (
          <Button
            key={name}
            variant={category === name ? 'contained' : 'outlined'}
            aria-pressed={category === name}
            onClick={() => setCategory(name)}
          >
            {name}
          </Button>
        ))}
      </Box>
      {apps.length === 0 ? (
        <Typography color="text.secondary">No apps match your search.</Typography>
      ) : (
        <Grid container spacing={3}>
          {apps.map((app) => (
            <Grid key={app.id} size={{ xs: 12, sm: 6, md: 3 }}>
              <DataAppCard app={app} />
            </Grid>
          ))}
        </Grid>
      )}
    </Container>
  );
}
