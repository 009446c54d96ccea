import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { BLOG_POST_TYPES } from '../entities/blog-post.entity';
import type { BlogPostType } from '../entities/blog-post.entity';

export const BLOG_PAGE_SIZE = 50;
export const BLOG_MAX_PAGE_SIZE = 100;

export class ListBlogPostsQueryDto {
  @ApiPropertyOptional({ description: 'Words found in the title or text (prefixes match)' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ enum: BLOG_POST_TYPES })
  @IsOptional()
  // The SPA's "All Types" sends an empty type.
  @Transform(({ value }) => (value === '' ? undefined : value))
  @IsIn(BLOG_POST_TYPES, { message: `type must be one of ${BLOG_POST_TYPES.join(', ')}` })
  type?: BlogPostType;

  @ApiPropertyOptional({ default: BLOG_PAGE_SIZE, maximum: BLOG_MAX_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(BLOG_MAX_PAGE_SIZE)
  limit: number = BLOG_PAGE_SIZE;

  @ApiPropertyOptional({ default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(10_000_000)
  offset: number = 0;
}
