import { BadRequestException, ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessGate } from '../access/access-gate.service';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { RateLimiterService, RateLimitRule } from '../common/rate-limit/rate-limiter.service';
import { isUniqueViolation } from '../database/sql';
import { sanitizeBlogHtml } from './blog-html.sanitizer';
import { BlogPostDetail, BlogPostRow, BlogPostSummary, toDetail, toSummary } from './blog-post.response';
import { containsPattern, prefixTsQuery } from './blog-search';
import { CreateBlogPostDto, SLUG_PATTERN } from './dto/create-blog-post.dto';
import { BlogPost } from './entities/blog-post.entity';
import type { ListBlogPostsQueryDto } from './dto/list-blog-posts-query.dto';

/** The searchable text; exactly the expression of blog_posts_search_idx, so the GIN index serves it. */
const SEARCH_DOCUMENT = `to_tsvector('simple', p.title || ' ' || regexp_replace(p.content, '<[^>]*>', ' ', 'g'))`;
/** One like per visitor (their anonymous visitor cookie) and post a day: nobody can inflate the count. */
export const LIKE_RATE_LIMIT: RateLimitRule = { limit: 1, windowSeconds: 24 * 3600 };
export const ALREADY_LIKED = 'You have already liked this post';
/**
 * Likes of one post from one network address a day: room for an office behind one address, but a
 * client throwing its cookie away to like again soon runs into it.
 */
export const LIKE_NETWORK_LIMIT: RateLimitRule = { limit: 30, windowSeconds: 24 * 3600 };
export const TOO_MANY_LIKES = 'Too many likes from your network today. Please try again tomorrow.';
const POST_NOT_FOUND = 'Post not found';

export interface BlogPage {
  posts: BlogPostSummary[];
  total: number;
}

/** /blog/new is the editor's page, so a post there could never be opened. */
const RESERVED_SLUGS = new Set(['new']);

@Injectable()
export class BlogService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly rateLimiter: RateLimiterService,
    private readonly gate: AccessGate,
  ) {}

  /** Newest first; `search` matches words (as prefixes) of title and text, or any part of the title. */
  async list(query: ListBlogPostsQueryDto): Promise<BlogPage> {
    const conditions: string[] = [];
    const parameters: unknown[] = [];
    if (query.type) {
      parameters.push(query.type);
      conditions.push(`p.type = $${parameters.length}`);
    }
    const search = query.search?.trim();
    if (search) {
      parameters.push(containsPattern(search));
      const titleMatch = `p.title ILIKE $${parameters.length}`;
      const tsQuery = prefixTsQuery(search);
      if (tsQuery) {
        parameters.push(tsQuery);
        conditions.push(
          `(${SEARCH_DOCUMENT} @@ to_tsquery('simple', $${parameters.length}) OR ${titleMatch})`,
        );
      } else {
        conditions.push(titleMatch);
      }
    }
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const [{ total }] = await this.dataSource.query(
      `SELECT count(*)::int AS total FROM blog_posts p ${where}`,
      parameters,
    );
    const rows: BlogPostRow[] = await this.dataSource.query(
      `SELECT p.id, p.title, p.slug, p.type, p.cover_image, p.created_at, p.updated_at, p.views, p.likes,
              u.name AS author_name,
              left(regexp_replace(p.content, '<[^>]*>', ' ', 'g'), 600) AS plain_text
       FROM blog_posts p LEFT JOIN users u ON u.id = p.author_id
       ${where}
       ORDER BY p.created_at DESC, p.id DESC
       LIMIT $${parameters.length + 1} OFFSET $${parameters.length + 2}`,
      [...parameters, query.limit, query.offset],
    );
    return { posts: rows.map(toSummary), total };
  }

  /** The post, counting this read: one atomic increment per call. */
  async read(slug: string): Promise<BlogPostDetail> {
    if (!SLUG_PATTERN.test(slug)) throw new NotFoundException(POST_NOT_FOUND);
    const [row] = await this.dataSource.query(
      `WITH post AS (UPDATE blog_posts SET views = views + 1 WHERE slug = $1 RETURNING *)
       SELECT post.*, u.name AS author_name FROM post LEFT JOIN users u ON u.id = post.author_id`,
      [slug],
    );
    if (!row) throw new NotFoundException(POST_NOT_FOUND);
    return toDetail(row);
  }

  /** Publishes a post; only blog editors may, and the HTML is sanitised whatever the client sent. */
  async create(author: AuthenticatedUser, input: CreateBlogPostDto): Promise<BlogPostDetail> {
    this.gate.requireFlag(author, 'editor');
    if (RESERVED_SLUGS.has(input.slug)) {
      throw new BadRequestException(`The slug "${input.slug}" is reserved; please choose another`);
    }
    const values = {
      title: input.title,
      slug: input.slug,
      type: input.type ?? 'update',
      coverImage: input.cover_image ?? null,
      content: sanitizeBlogHtml(input.content ?? ''),
      authorId: author.id,
    };
    let saved: Pick<BlogPost, 'id' | 'createdAt' | 'updatedAt' | 'views' | 'likes'>;
    try {
      const { generatedMaps } = await this.dataSource.getRepository(BlogPost).insert(values);
      saved = generatedMaps[0] as typeof saved;
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictException('This slug is already taken');
      throw error;
    }
    return toDetail({
      id: saved.id,
      title: values.title,
      slug: values.slug,
      type: values.type,
      cover_image: values.coverImage,
      content: values.content,
      author_name: author.name,
      created_at: saved.createdAt,
      updated_at: saved.updatedAt,
      views: saved.views ?? 0,
      likes: saved.likes ?? 0,
    });
  }

  /**
   * One more like, counted atomically; each visitor (anonymous visitor cookie) may like a post
   * once a day, and each network address a few dozen times.
   */
  async like(slug: string, liker: { visitorId: string; clientIp: string }): Promise<{ likes: number }> {
    if (!SLUG_PATTERN.test(slug)) throw new NotFoundException(POST_NOT_FOUND);
    await this.rateLimiter.consume(`blog-like:${liker.visitorId}:${slug}`, LIKE_RATE_LIMIT, ALREADY_LIKED);
    await this.rateLimiter.consume(
      `blog-like-network:${liker.clientIp}:${slug}`,
      LIKE_NETWORK_LIMIT,
      TOO_MANY_LIKES,
    );
    const [row] = await this.dataSource.query(
      // Wrapped in a CTE so the driver answers rows (a bare UPDATE answers [rows, count]).
      'WITH liked AS (UPDATE blog_posts SET likes = likes + 1 WHERE slug = $1 RETURNING likes) SELECT likes FROM liked',
      [slug],
    );
    if (!row) throw new NotFoundException(POST_NOT_FOUND);
    return { likes: row.likes };
  }
}
