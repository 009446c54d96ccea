import ThumbUp from '@mui/icons-material/ThumbUp';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useNotify } from '../../components/useNotify';
import { useLikePost } from '../../api/blog';
import { ApiError } from '../../api/client';
import { failureText } from '../../api/users';

const LIKE_FAILED = 'Your like could not be saved.';

/** A clickable like counter: after each successful like call the count goes up by one. */
export function LikeButton({ slug, initialLikes }: { slug: string; initialLikes: number }) {
  const [likes, setLikes] = useState(initialLikes);
  const like = useLikePost();
  const notify = useNotify();

  const onClick = () =>
    like.mutate(slug, {
      onSuccess: () => setLikes((count) => count + 1),
      onError: (error) => {
        const text = failureText(error, { fallback: LIKE_FAILED, network: LIKE_FAILED });
        // A second like of the same post is refused (429) with a friendly reason, not a failure.
        notify(text, error instanceof ApiError && error.status === 429 ? 'info' : 'error');
      },
    });

  return (
    <Button
      variant="outlined"
      size="small"
      startIcon={<ThumbUp />}
      onClick={onClick}
      disabled={like.isPending}
      aria-label={`Like this post (${likes} ${likes === 1 ? 'like' : 'likes'})`}
    >
      {likes}
    </Button>
  );
}
