import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { BlogController } from './blog.controller';
import { BlogService } from './blog.service';

/** The blog: search and read (counting views), like without login, publish for blog editors. */
@Module({
  imports: [AccessModule],
  controllers: [BlogController],
  providers: [BlogService],
  exports: [BlogService],
})
export class BlogModule {}
