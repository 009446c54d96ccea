import {
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiCookieAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { SessionGuard } from '../common/guards/session.guard';
import { BlogPostDetail, BlogPostSummary, LikeCount } from './blog-post.response';
import { BlogService } from './blog.service';
import { CreateBlogPostDto } from './dto/create-blog-post.dto';
import { ListBlogPostsQueryDto } from './dto/list-blog-posts-query.dto';
import { VISITOR_COOKIE, visitorOf } from './visitor-cookie';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { addressKey } from '../common/client-address';

@ApiTags('blog')
@Controller('blog')
export class BlogController {
  constructor(
    private readonly blog: BlogService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Posts, newest first; the total count is in X-Total-Count' })
  @ApiOkResponse({
    type: [BlogPostSummary],
    headers: { 'X-Total-Count': { description: 'Posts matching the filter', schema: { type: 'integer' } } },
  })
  async list(
    @Query() query: ListBlogPostsQueryDto,
    @Res({ passthrough: true }) response: Response,
  ): Promise<BlogPostSummary[]> {
    const { posts, total } = await this.blog.list(query);
    response.setHeader('X-Total-Count', String(total));
    return posts;
  }

  @Get(':slug')
  @ApiOperation({ summary: 'One post; every call counts a view' })
  @ApiOkResponse({ type: BlogPostDetail })
  read(@Param('slug') slug: string): Promise<BlogPostDetail> {
    return this.blog.read(slug);
  }

  @Post()
  @UseGuards(SessionGuard)
  @ApiCookieAuth()
  @ApiOperation({ summary: 'Publish a post (blog editors only)' })
  @ApiCreatedResponse({ type: BlogPostDetail })
  create(@CurrentUser() user: AuthenticatedUser, @Body() input: CreateBlogPostDto): Promise<BlogPostDetail> {
    return this.blog.create(user, input);
  }

  @Post(':slug/like')
  @HttpCode(200)
  @ApiOperation({ summary: 'Like a post (no login); answers the new count' })
  @ApiOkResponse({ type: LikeCount })
  like(
    @Param('slug') slug: string,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<LikeCount> {
    const visitor = visitorOf(request, this.config.sessionSecret);
    if (visitor.newCookie)
      response.cookie(VISITOR_COOKIE, visitor.newCookie.value, visitor.newCookie.options);
    return this.blog.like(slug, { visitorId: visitor.id, clientIp: addressKey(request.ip) });
  }
}
