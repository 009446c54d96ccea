import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import CardMedia from '@mui/material/CardMedia';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { formatPostDate } from './blog-format';
import type { BlogPostSummary } from '../../api/blog';

export function BlogCard({ post }: { post: BlogPostSummary }) {
  const titleId = `post-${post.id}`;
  return (
    <Card
      component="article"
      aria-labelledby={titleId}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
    >
      {post.cover_image ? (
        <CardMedia component="img" height={180} image={post.cover_image} alt={`Cover image: ${post.title}`} />
      ) : (
        <Box sx={{ height: 180, background: 'linear-gradient(135deg, #3f51b5, #00897b)' }} />
      )}
      <CardContent sx={{ flexGrow: 1 }}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 1 }}>
          <Chip label={post.type} size="small" color="primary" variant="outlined" />
          <Typography variant="body2" color="text.secondary" component="time" dateTime={post.created_at}>
            {formatPostDate(post.created_at)}
          </Typography>
        </Box>
        <Typography variant="h6" component="h2" id={titleId}>
          {post.title}
        </Typography>
        {post.excerpt && (
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            {post.excerpt}
          </Typography>
        )}
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        <Button component={RouterLink} to={`/blog/${post.slug}`} aria-label={`Read More: ${post.title}`}>
          Read More
        </Button>
      </CardActions>
    </Card>
  );
}
