import SearchIcon from '@mui/icons-material/Search';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import InputAdornment from '@mui/material/InputAdornment';
import InputLabel from '@mui/material/InputLabel';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import OutlinedInput from '@mui/material/OutlinedInput';
import Select from '@mui/material/Select';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { Link as RouterLink } from 'react-router-dom';
import {
  ALL_CATEGORIES,
  CatalogFilters,
  categorySelectValue,
  nextCategories,
  SORT_LABELS,
  sortLabel,
} from '../../features/datastore/catalogFilters';
import type { ItemKind } from '../../features/datastore/catalogItem';

const KIND_LABELS: Array<[ItemKind, string]> = [
  ['dataset', 'Datasets'],
  ['connector', 'Connectors'],
  ['app', 'Apps'],
];

interface Props {
  searchText: string;
  onSearchText: (text: string) => void;
  filters: CatalogFilters;
  categories: string[];
  /** Items per category matching the search, shown beside each. */
  counts?: Map<string, number>;
  onChange: (filters: CatalogFilters) => void;
}

export function CatalogFilterBar({ searchText, onSearchText, filters, categories, counts, onChange }: Props) {
  const shownKinds = KIND_LABELS.map(([kind]) => kind).filter((kind) => filters.kinds[kind]);
  return (
    // From tablet width the controls sit in rows that wrap whole, rather than squeezing one of them.
    <Stack
      direction={{ xs: 'column', md: 'row' }}
      spacing={2}
      useFlexGap
      sx={{ alignItems: { md: 'center' }, flexWrap: { md: 'wrap' }, mb: 3 }}
    >
      <TextField
        label="Search datasets"
        type="search"
        size="small"
        value={searchText}
        onChange={(event) => onSearchText(event.target.value)}
        sx={{ flex: 1, minWidth: { md: 200 } }}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
      <ToggleButtonGroup
        size="small"
        color="primary"
        aria-label="Item types"
        value={shownKinds}
        onChange={(_event, kinds: ItemKind[]) =>
          onChange({
            ...filters,
            kinds: {
              dataset: kinds.includes('dataset'),
              connector: kinds.includes('connector'),
              app: kinds.includes('app'),
            },
          })
        }
        sx={{ flexWrap: 'wrap' }}
      >
        {KIND_LABELS.map(([kind, label]) => (
          <ToggleButton
            key={kind}
            value={kind}
            // The theme's pale tint of a pressed toggle is hard to tell from an unpressed one.
            sx={{
              px: 2,
              '&.Mui-selected, &.Mui-selected:hover': {
                bgcolor: 'primary.main',
                color: 'primary.contrastText',
                fontWeight: 600,
              },
            }}
          >
            {label}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <FormControlLabel
        label="Live only"
        sx={{ whiteSpace: 'nowrap', mr: 0 }}
        control={
          <Checkbox
            checked={!!filters.liveOnly}
            onChange={(event) => {
              const { liveOnly: _previous, ...rest } = filters;
              void _previous;
              onChange(event.target.checked ? { ...rest, liveOnly: true } : rest);
            }}
          />
        }
      />
      <FormControl size="small" sx={{ minWidth: 200 }}>
        <InputLabel id="category-filter-label">Category</InputLabel>
        <Select
          labelId="category-filter-label"
          multiple
          value={categorySelectValue(filters.categories)}
          onChange={(event) => {
            const picked =
              typeof event.target.value === 'string' ? event.target.value.split(',') : event.target.value;
            onChange({ ...filters, categories: nextCategories(filters.categories, picked) });
          }}
          input={<OutlinedInput label="Category" />}
          renderValue={(selected) => selected.join(', ')}
        >
          {[ALL_CATEGORIES, ...categories].map((category) => (
            <MenuItem key={category} value={category}>
              <Checkbox
                size="small"
                checked={
                  category === ALL_CATEGORIES
                    ? filters.categories.length === 0
                    : filters.categories.includes(category)
                }
              />
              <ListItemText
                primary={
                  category !== ALL_CATEGORIES && counts?.has(category)
                    ? `${category} (${counts.get(category)})`
                    : category
                }
              />
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <FormControl size="small" sx={{ minWidth: 190 }}>
        <InputLabel id="sort-label" shrink>
          Sort by
        </InputLabel>
        <Select
          labelId="sort-label"
          value={filters.sort ?? ''}
          // Without a choice the field says which order applies instead of standing empty.
          displayEmpty
          renderValue={() => sortLabel(filters)}
          onChange={(event) => {
            const sort = event.target.value as CatalogFilters['sort'] | '';
            const { sort: _previous, ...rest } = filters;
            void _previous;
            onChange(sort ? { ...rest, sort } : rest);
          }}
          input={<OutlinedInput notched label="Sort by" />}
        >
          {SORT_LABELS.map(([value, label]) => (
            <MenuItem key={value || 'default'} value={value}>
              {label}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <Button component={RouterLink} to="/upload" variant="contained" sx={{ whiteSpace: 'nowrap' }}>
        + Add Dataset
      </Button>
    </Stack>
  );
}
