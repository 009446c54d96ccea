import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { dedicatedClient } from '../sql';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { SEED_POSTS } from '../../blog/seed/blog-seed-posts';
import { SEED_CONNECTORS } from '../../connectors/seed/seed-connectors';
import { DemoProductSeeder } from '../../products/demo/demo-product.seeder';
import { BlogSeeder } from './blog.seeder';
import { ConnectorsSeeder } from './connectors.seeder';
import { DatasetsSeeder, SEED_DATASETS } from './datasets.seeder';
import { DemoUserSeeder } from './demo-user.seeder';
import { DEMO_USER } from './seed-context';

const SEED_LOCK_ID = 727_100_002;

/**
 * Fills a new database with a living product (demo user, datasets, connectors, blog posts).
 * On by default for local use only; production seeds nothing unless SEED=true. Every seeder is idempotent; the advisory lock keeps concurrently starting processes apart.
 */
@Injectable()
export class SeedService implements OnApplicationBootstrap {
  private readonly logger = new Logger(SeedService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly demoUser: DemoUserSeeder,
    private readonly datasets: DatasetsSeeder,
    private readonly connectors: ConnectorsSeeder,
    private readonly blog: BlogSeeder,
    private readonly liveDemo: DemoProductSeeder,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.isProduction) await this.demoUser.lockPublishedPassword();
    if (!this.config.seed) return;
    const added = await this.seed();
    // Every seeder is idempotent, so after a seed the whole demo set is there, new or kept.
    const contents = `${SEED_DATASETS.length} datasets, ${SEED_CONNECTORS.length} connectors, ${SEED_POSTS.length} blog posts`;
    this.logger.log(
      added > 0 ? `Seeded demo content: ${contents}` : `Demo content already seeded: ${contents}`,
    );
    if (this.demoUser.hasPublishedPassword) {
      this.logger.log(`Demo login (local use only): ${DEMO_USER.email} / ${DEMO_USER.password}`);
    } else {
      this.logger.log(`Demo content seeded; its owner ${DEMO_USER.email} has no usable password`);
    }
  }

  /** Answers how many datasets and blog posts were new (connectors are brought up to date every time). */
  async seed(): Promise<number> {
    // A session lock held across the seeders' own transactions: on a connection of its own.
    const lock = dedicatedClient(this.dataSource, 'seed-lock');
    await lock.connect();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [SEED_LOCK_ID]);
      const demoUserId = await this.demoUser.run();
      const context = { demoUserId };
      const datasetsAdded = await this.datasets.run(context);
      await this.connectors.run(context);
      await this.liveDemo.run(context);
      const postsAdded = await this.blog.run(context);
      return datasetsAdded + postsAdded;
    } finally {
      await lock.end().catch(() => undefined);
    }
  }
}
