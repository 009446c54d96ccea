import Container from '@mui/material/Container';
import Typography from '@mui/material/Typography';
import { BlogGrid } from '../Blog/BlogGrid';
import { useBlogPosts } from '../../api/blog';

/** The blog's use_case posts. */
export function UseCasesPage() {
  const posts = useBlogPosts({ type: 'use_case' });
  return (
    <Container maxWidth="lg" sx={{ py: { xs: 5, md: 8 } }}>
      <Typography variant="h2" component="h1" gutterBottom>
        Use Cases
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4, maxWidth: 720 }}>
        How teams put marketplace datasets and connectors to work.
      </Typography>
      <BlogGrid
        posts={posts.data}
        isPending={posts.isPending}
        isError={posts.isError}
        emptyText="No use cases published yet."
      />
    </Container>
  );
}
