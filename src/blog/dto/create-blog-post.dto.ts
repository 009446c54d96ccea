import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional, MaxLength } from 'class-validator';
import { BLOG_POST_TYPES } from '../entities/blog-post.entity';
import type { BlogPostType } from '../entities/blog-post.entity';
import { IsCoverImage } from './is-cover-image.validator';
import { RequiredText } from './required-text.validator';

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class CreateBlogPostDto {
  @ApiProperty({ maxLength: 200 })
  @Transform(trim)
  @RequiredText({ label: 'Title', maxLength: 200 })
  title: string;

  @ApiProperty({
    description: 'Lower-case letters, digits and single hyphens; unique',
    example: 'stream-to-power-bi',
  })
  @Transform(trim)
  @RequiredText({
    label: 'Slug',
    maxLength: 120,
    pattern: SLUG_PATTERN,
    patternMessage: 'Slug may contain only lower-case letters, digits and hyphens',
  })
  slug: string;

  @ApiPropertyOptional({ enum: BLOG_POST_TYPES, default: 'update' })
  @IsOptional()
  @IsIn(BLOG_POST_TYPES, { message: `type must be one of ${BLOG_POST_TYPES.join(', ')}` })
  type?: BlogPostType;

  @ApiPropertyOptional({ description: 'http(s) URL or a path on this site such as /images/blog/x.svg' })
  @Transform(({ value }) => (typeof value === 'string' && value.trim() === '' ? undefined : trim({ value })))
  @IsOptional()
  @IsCoverImage()
  cover_image?: string;

  @ApiPropertyOptional({ description: 'HTML; sanitised on the server' })
  @IsOptional()
  @MaxLength(1_000_000, { message: 'Content must be HTML text of at most 1,000,000 characters' })
  content?: string;
}
