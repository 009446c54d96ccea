import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { Relation } from 'typeorm';
import { User } from '../../users/entities/user.entity';

export const BLOG_POST_TYPES = ['update', 'use_case', 'whitepaper'] as const;
export type BlogPostType = (typeof BLOG_POST_TYPES)[number];

/** A blog post; `content` is HTML that was sanitised on the way in. */
@Entity({ name: 'blog_posts' })
@Check('blog_posts_type_check', `type IN ('update', 'use_case', 'whitepaper')`)
@Index('blog_posts_search_idx', { synchronize: false })
@Index('blog_posts_title_trgm_idx', { synchronize: false })
export class BlogPost {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  title: string;

  @Index('blog_posts_slug_key', { unique: true })
  @Column({ type: 'text' })
  slug: string;

  @Index('blog_posts_type_idx')
  @Column({ type: 'text' })
  type: BlogPostType;

  @Column({ name: 'cover_image', type: 'text', nullable: true })
  coverImage: string | null;

  @Column({ type: 'text', default: '' })
  content: string;

  @Column({ name: 'author_id', type: 'uuid', nullable: true })
  authorId: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'author_id', foreignKeyConstraintName: 'blog_posts_author_id_fkey' })
  author?: Relation<User>;

  @Column({ type: 'integer', default: 0 })
  views: number;

  @Column({ type: 'integer', default: 0 })
  likes: number;

  @Index('blog_posts_created_at_idx')
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
