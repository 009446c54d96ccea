import Alert from '@mui/material/Alert';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { PageLoading } from '../../app/PageLoading';
import { BlogCard } from './BlogCard';
import type { BlogPostSummary } from '../../api/blog';

interface BlogGridProps {
  posts: BlogPostSummary[] | undefined;
  isPending: boolean;
  isError: boolean;
  emptyText: string;
}

/** Post cards with the loading, error and empty states every post list needs. */
export function BlogGrid({ posts, isPending, isError, emptyText }: BlogGridProps) {
  if (isPending) return <PageLoading />;
  if (isError) return <Alert severity="error">Failed to load data.</Alert>;
  if (!posts?.length) return <Typography color="text.secondary">{emptyText}</Typography>;
  return (
    <Grid container spacing={3}>
      {posts.map((post) => (
        <Grid key={post.id} size={{ xs: 12, sm: 6, md: 4 }}>
          <BlogCard post={post} />
        </Grid>
      ))}
    </Grid>
  );
}
