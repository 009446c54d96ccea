import { Injectable, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessGate, Caller } from '../access/access-gate.service';
import { Asset } from '../assets/entities/asset.entity';
import { SLUG_PATTERN } from '../blog/dto/create-blog-post.dto';
import { BlogPost } from '../blog/entities/blog-post.entity';
import { Connector } from '../connectors/entities/connector.entity';
import { MAX_SITEMAP_URLS } from './sitemap';

const LISTED_DATASET_COLUMNS = [
  'id',
  'readableName',
  'title',
  'description',
  'keywords',
  'licence',
  'author',
  'createdAt',
  'updatedAt',
  'dataUpdatedAt',
] as const;

/** A visitor: what the access gate lets anyone see is exactly what listings may publish. */
const VISITOR: Caller = undefined;

/**
 * The listings search engines, link previews and harvesters read. Every one is what the access gate
 * shows a visitor (public datasets and connectors), so private items never reach them; only the
 * data package also answers a logged-in caller for what they themselves may see.
 */
@Injectable()
export class PublicListingsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly gate: AccessGate,
  ) {}

  /** A dataset a visitor may see, or undefined (private, missing or no id at all). */
  async publicDataset(id: string): Promise<Asset | undefined> {
    return this.orUndefined(this.datasetFor(VISITOR, id));
  }

  /** A connector a visitor may see, or undefined. */
  async publicConnector(id: string): Promise<Connector | undefined> {
    return this.orUndefined(this.gate.requireConnector(VISITOR, id));
  }

  /** A dataset the caller may see (404 "Dataset not found" otherwise, as everywhere). */
  async datasetFor(caller: Caller, id: string): Promise<Asset> {
    return (await this.gate.requireDataset(caller, id, 'sample')).asset;
  }

  /**
   * Every dataset a visitor may see, newest first, at most MAX_SITEMAP_URLS, with only what the
   * sitemap and the catalogue feed name (not columns, profiles or dictionaries).
   */
  publicDatasets(): Promise<Asset[]> {
    return this.dataSource
      .getRepository(Asset)
      .createQueryBuilder('asset')
      .select(LISTED_DATASET_COLUMNS.map((column) => `asset.${column}`))
      .where(this.gate.datasetCondition('visible', 'asset', 'NULL'))
      .orderBy('asset.createdAt', 'DESC')
      .addOrderBy('asset.id', 'DESC')
      .limit(MAX_SITEMAP_URLS)
      .getMany();
  }

  /** Every connector a visitor may see, by title, at most MAX_SITEMAP_URLS (what the feed names). */
  publicConnectors(): Promise<Connector[]> {
    return this.dataSource
      .getRepository(Connector)
      .createQueryBuilder('connector')
      .select(['connector.id', 'connector.title', 'connector.description', 'connector.updatedAt'])
      .where(this.gate.connectorCondition('visible', 'connector', 'NULL'))
      .orderBy('connector.title', 'ASC')
      .addOrderBy('connector.id', 'ASC')
      .limit(MAX_SITEMAP_URLS)
      .getMany();
  }

  /** Blog posts are public once published: slugs and dates of the newest MAX_SITEMAP_URLS. */
  blogPosts(): Promise<Array<Pick<BlogPost, 'slug' | 'createdAt'>>> {
    return this.dataSource.getRepository(BlogPost).find({
      select: { slug: true, createdAt: true },
      order: { createdAt: 'DESC' },
      take: MAX_SITEMAP_URLS,
    });
  }

  /** A published post for its page's head (not counted as a read), or undefined. */
  async blogPost(
    slug: string,
  ): Promise<
    Pick<BlogPost, 'slug' | 'title' | 'content' | 'coverImage' | 'createdAt' | 'updatedAt'> | undefined
  > {
    if (!SLUG_PATTERN.test(slug)) return undefined;
    const post = await this.dataSource.getRepository(BlogPost).findOne({
      select: { slug: true, title: true, content: true, coverImage: true, createdAt: true, updatedAt: true },
      where: { slug },
    });
    return post ?? undefined;
  }

  private async orUndefined<T>(lookup: Promise<T>): Promise<T | undefined> {
    try {
      return await lookup;
    } catch (error) {
      if (error instanceof NotFoundException) return undefined;
      throw error;
    }
  }
}
