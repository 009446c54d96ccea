import Search from '@mui/icons-material/Search';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import InputAdornment from '@mui/material/InputAdornment';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { BlogGrid } from './BlogGrid';
import { BLOG_TYPE_FILTERS } from './blog-format';
import { BLOG_POST_TYPES, BlogPostType, useBlogPosts } from '../../api/blog';
import { useDebouncedValue } from '../../components/useDebouncedValue';

export function BlogPage() {
  // Search and filter live in the address, so back/forward and shared links keep them.
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const typeParam = params.get('type') ?? '';
  // An unknown type in a hand-edited address counts as All Types.
  const type = BLOG_POST_TYPES.includes(typeParam as BlogPostType) ? (typeParam as BlogPostType) : '';
  const debouncedSearch = useDebouncedValue(search.trim());
  const posts = useBlogPosts({ search: debouncedSearch, type });

  const update = (key: 'search' | 'type', value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };

  return (
    <Container maxWidth="lg" sx={{ py: { xs: 5, md: 8 } }}>
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          gap: 2,
          alignItems: 'center',
          justifyContent: 'space-between',
        }}
      >
        <Typography variant="h2" component="h1">
          Blog
        </Typography>
        <Button component={RouterLink} to="/blog/new" variant="outlined">
          New post
        </Button>
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, my: 4 }}>
        <TextField
          type="search"
          label="Search posts"
          value={search}
          onChange={(event) => update('search', event.target.value)}
          sx={{ flex: '1 1 280px', maxWidth: 480 }}
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
        <TextField
          select
          label="Type"
          value={type}
          onChange={(event) => update('type', event.target.value)}
          sx={{ flex: '0 1 200px' }}
          // '' is a real choice here (All Types), so it must show instead of an empty box.
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          {BLOG_TYPE_FILTERS.map((option) => (
            <MenuItem key={option.value} value={option.value}>
              {option.label}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <BlogGrid
        posts={posts.data}
        isPending={posts.isPending}
        isError={posts.isError}
        emptyText="No posts found."
      />
    </Container>
  );
}
