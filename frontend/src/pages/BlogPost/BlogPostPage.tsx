import ArrowBack from '@mui/icons-material/ArrowBack';
import Visibility from '@mui/icons-material/Visibility';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { PageLoading } from '../../app/PageLoading';
import { usePageTitle } from '../../app/usePageTitle';
import { formatPostDate, viewsText } from '../Blog/blog-format';
import { useBlogPost } from '../../api/blog';
import { LikeButton } from './LikeButton';
import { PostContent } from './PostContent';
import { ShareLinks } from './ShareLinks';

export function BlogPostPage() {
  const { slug = '' } = useParams();
  const { data: post, isPending, error } = useBlogPost(slug);
  usePageTitle(post?.title);

  const back = (
    <Button component={RouterLink} to="/blog" startIcon={<ArrowBack />} sx={{ mb: 2 }}>
      Back to the blog
    </Button>
  );

  if (isPending) return <PageLoading />;
  if (error || !post) {
    return (
      <Container maxWidth="md" sx={{ py: 6 }}>
        {back}
        <Alert severity={error instanceof ApiError && error.status === 404 ? 'info' : 'error'}>
          {error instanceof ApiError && error.status === 404 ? 'Item not found' : 'Failed to load data.'}
        </Alert>
      </Container>
    );
  }

  return (
    <Container maxWidth="md" component="article" sx={{ py: { xs: 4, md: 6 } }}>
      {back}
      <Typography variant="h2" component="h1">
        {post.title}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', my: 2 }}>
        <Chip label={post.type} color="primary" variant="outlined" size="small" />
        <Typography color="text.secondary" component="time" dateTime={post.created_at}>
          {formatPostDate(post.created_at)}
        </Typography>
        <Typography color="text.secondary" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
          <Visibility fontSize="small" aria-hidden /> {viewsText(post.views)}
        </Typography>
        <LikeButton key={post.slug} slug={post.slug} initialLikes={post.likes} />
      </Box>
      {post.cover_image && (
        <Box
          component="img"
          src={post.cover_image}
          alt={`Cover image: ${post.title}`}
          sx={{ width: '100%', maxHeight: 420, objectFit: 'cover', borderRadius: 3, my: 2 }}
        />
      )}
      <PostContent html={post.content} />
      <Divider sx={{ my: 4 }} />
      <ShareLinks slug={post.slug} title={post.title} />
    </Container>
  );
}
