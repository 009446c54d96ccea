import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FormEvent, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { useNotify } from '../../components/useNotify';
import { BLOG_POST_TYPES, useCreatePost } from '../../api/blog';
import { ContentField } from './ContentField';
import { PublishRightsNotice } from './PublishRightsNotice';
import { PostFormErrors, PostFormValues, validatePostForm } from './post-form';
import { suggestSlug } from './slug';

const EMPTY: PostFormValues = { title: '', slug: '', type: 'update', cover_image: '', content: '' };

export function BlogNewPage() {
  const [values, setValues] = useState<PostFormValues>(EMPTY);
  // Until the author edits the slug, it follows the title.
  const [slugEdited, setSlugEdited] = useState(false);
  const [rawHtml, setRawHtml] = useState(false);
  // After the first Publish the field errors follow the values, so a fixed field clears its error.
  const [triedToPublish, setTriedToPublish] = useState(false);
  const errors: PostFormErrors = triedToPublish ? validatePostForm(values) : {};
  const [serverError, setServerError] = useState<{ text: string; needsLogin: boolean }>();
  const createPost = useCreatePost();
  const notify = useNotify();
  const navigate = useNavigate();

  const set = <Key extends keyof PostFormValues>(key: Key, value: PostFormValues[Key]) =>
    setValues((current) => ({ ...current, [key]: value }));

  const onTitle = (title: string) =>
    setValues((current) => ({ ...current, title, slug: slugEdited ? current.slug : suggestSlug(title) }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = validatePostForm(values);
    setTriedToPublish(true);
    setServerError(undefined);
    if (Object.keys(found).length > 0) return;
    const input = {
      title: values.title.trim(),
      slug: values.slug.trim(),
      type: values.type,
      content: values.content,
      ...(values.cover_image.trim() ? { cover_image: values.cover_image.trim() } : {}),
    };
    createPost.mutate(input, {
      onSuccess: () => {
        notify('Post created!', 'success');
        navigate(`/blog/${input.slug}`);
      },
      onError: (error) => {
        notify('Error creating post.', 'error');
        if (error instanceof ApiError)
          setServerError({ text: error.message, needsLogin: error.status === 401 });
      },
    });
  };

  return (
    <Container maxWidth="md" sx={{ py: { xs: 4, md: 6 } }}>
      <Typography variant="h2" component="h1" gutterBottom>
        New blog post
      </Typography>
      <PublishRightsNotice />
      <Paper variant="outlined" component="form" noValidate onSubmit={onSubmit} sx={{ p: { xs: 2, sm: 3 } }}>
        <Box sx={{ display: 'grid', gap: 2.5 }}>
          <TextField
            label="Title"
            required
            value={values.title}
            onChange={(event) => onTitle(event.target.value)}
            error={Boolean(errors.title)}
            helperText={errors.title}
          />
          <TextField
            label="Slug"
            required
            value={values.slug}
            onChange={(event) => {
              setSlugEdited(true);
              set('slug', event.target.value);
            }}
            error={Boolean(errors.slug)}
            helperText={errors.slug ?? `The post's address: /blog/${values.slug || '…'}`}
          />
          <TextField
            select
            label="Type"
            value={values.type}
            onChange={(event) => set('type', event.target.value as PostFormValues['type'])}
          >
            {BLOG_POST_TYPES.map((type) => (
              <MenuItem key={type} value={type}>
                {type}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Cover image URL"
            type="url"
            value={values.cover_image}
            onChange={(event) => set('cover_image', event.target.value)}
            helperText="An https:// address or a path on this site, e.g. /images/blog/cover.svg"
          />
          <ContentField
            value={values.content}
            onChange={(html) => set('content', html)}
            rawHtml={rawHtml}
            onRawHtmlChange={setRawHtml}
          />
          {serverError && (
            <Alert
              severity="error"
              action={
                serverError.needsLogin && (
                  // The form keeps its content; logging in happens in a new tab.
                  <Button color="inherit" size="small" href="/login" target="_blank" rel="noopener">
                    Login
                  </Button>
                )
              }
            >
              {serverError.text}
            </Alert>
          )}
          <Box>
            <Button type="submit" variant="contained" size="large" disabled={createPost.isPending}>
              Publish
            </Button>
          </Box>
        </Box>
      </Paper>
    </Container>
  );
}
