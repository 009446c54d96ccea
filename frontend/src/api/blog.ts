import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { components } from './schema';

export type BlogPostSummary = components['schemas']['BlogPostSummary'];
/** GET blog/{slug}: `content` is HTML the server sanitised, safe to render as is. */
export type BlogPost = components['schemas']['BlogPostDetail'];
export type BlogPostType = BlogPost['type'];
export type CreatePostInput = components['schemas']['CreateBlogPostDto'];
export const BLOG_POST_TYPES: BlogPostType[] = ['update', 'use_case', 'whitepaper'];

export interface BlogFilter {
  search?: string;
  /** '' means All Types. */
  type?: BlogPostType | '';
}

export const blogKeys = {
  all: ['blog'] as const,
  lists: () => [...blogKeys.all, 'list'] as const,
  list: (filter: BlogFilter) =>
    [...blogKeys.lists(), { search: filter.search ?? '', type: filter.type ?? '' }] as const,
  post: (slug: string) => [...blogKeys.all, 'post', slug] as const,
};

/** The GET blog path for a filter, leaving out empty parameters. */
export function blogListPath({ search, type }: BlogFilter): string {
  const params = new URLSearchParams();
  if (search?.trim()) params.set('search', search.trim());
  if (type) params.set('type', type);
  const query = params.toString();
  return query ? `blog?${query}` : 'blog';
}

export function useBlogPosts(filter: BlogFilter = {}) {
  return useQuery({
    queryKey: blogKeys.list(filter),
    queryFn: ({ signal }) => api<BlogPostSummary[]>(blogListPath(filter), { signal }),
  });
}

export function useBlogPost(slug: string) {
  return useQuery({
    queryKey: blogKeys.post(slug),
    queryFn: () => api<BlogPost>(`blog/${encodeURIComponent(slug)}`),
    enabled: slug !== '',
    // Every fetch counts a view: fetch once per visit, never again in the background.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

/** POST blog; the caller shows 'Post created!' or 'Error creating post.'. */
export function useCreatePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreatePostInput) => api<BlogPost>('blog', { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: blogKeys.lists() }),
  });
}

/** POST blog/{slug}/like (no login); the cached post takes the server's new count. */
export function useLikePost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (slug: string) =>
      api<components['schemas']['LikeCount']>(`blog/${encodeURIComponent(slug)}/like`, { method: 'POST' }),
    onSuccess: ({ likes }, slug) => {
      queryClient.setQueryData<BlogPost>(blogKeys.post(slug), (post) => (post ? { ...post, likes } : post));
    },
  });
}
