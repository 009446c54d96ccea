import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { ConnectorInstancesService } from '../../connectors/connector-instances.service';
import { ConnectorsService, SeedConnector } from '../../connectors/connectors.service';
import { ConnectorLifecycle } from '../../connectors/runs/run-end-listeners';
import { DEMO_FEED_PATH } from '../../connectors/seed/demo-feed-url';
import { DEMO_USER } from '../../database/seed/seed-context';
import { ProductsService } from '../products.service';

export const DEMO_CONNECTOR_TITLE = 'Demo sensor network (served by this app)';
export const DEMO_PRODUCT_TITLE = 'Live demo: city air quality';
/** Minutes between the demo connection's refreshes: short, so a newcomer sees one happen. */
const DEMO_INTERVAL_MINUTES = 5;

/**
 * The seeded live product: a connection of the demo user to the app's own demo feed, refreshed
 * every few minutes by the scheduler, published as a dataset after its first run (the app must be
 * listening before it can read its own feed, so the seed itself cannot run it).
 */
@Injectable()
export class DemoProductSeeder implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly connectors: ConnectorsService,
    private readonly instances: ConnectorInstancesService,
    private readonly products: ProductsService,
    private readonly lifecycle: ConnectorLifecycle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.lifecycle.onRunEnded((run) => this.publishAfterFirstRun(run.instanceId));
  }

  /** The demo connector and the demo user's connection to it; found again, so seeding twice adds nothing. */
  async run(context: { demoUserId: string }): Promise<void> {
    const connectorId = await this.connectors.upsertSeed(context.demoUserId, this.seedConnector());
    const existing: unknown[] = await this.dataSource.query(
      `SELECT 1 FROM connector_instances WHERE connector_id = $1 AND owner_id = $2`,
      [connectorId, context.demoUserId],
    );
    if (existing.length > 0) return;
    const owner = await this.demoUser(context.demoUserId);
    await this.instances.activate(owner, {
      connector_id: connectorId,
      title: 'Demo sensor readings',
      refresh_interval: DEMO_INTERVAL_MINUTES,
      settings: { override: true },
    });
  }

  private seedConnector(): SeedConnector {
    return {
      title: DEMO_CONNECTOR_TITLE,
      description:
        'Made-up air-quality readings served by this app itself, so the demo live product refreshes without internet.',
      source: 'This app (demo)',
      author: 'Demo',
      spec: {
        protocol: 'http',
        base_url: `http://127.0.0.1:${this.config.port}`,
        category: 'Environment',
        operations: [
          {
            id: 'readings',
            name: 'Readings',
            method: 'GET',
            url_path: DEMO_FEED_PATH,
            pagination: { type: 'none' },
          },
        ],
        fields: [],
      },
    };
  }

  /**
   * Publishes the seeded connection's table once its first run has filled it: only the demo
   * user's first connection to the demo connector, and only while no connection to it is published.
   * A connection the demo user makes again (or anyone else's) is an ordinary private one.
   */
  private async publishAfterFirstRun(instanceId: string): Promise<void> {
    const [pending]: Array<{ output_table_name: string; owner_id: string }> = await this.dataSource.query(
      `SELECT instance.output_table_name, instance.owner_id
         FROM connector_instances instance
         JOIN connectors connector ON connector.id = instance.connector_id
         JOIN users owner ON owner.id = instance.owner_id
        WHERE instance.id = $1 AND connector.title = $2 AND connector.owner_id = instance.owner_id
          AND owner.email = $3
          AND instance.id = (SELECT seeded.id FROM connector_instances seeded
                              WHERE seeded.connector_id = instance.connector_id AND seeded.owner_id = instance.owner_id
                              ORDER BY seeded.created_at, seeded.id LIMIT 1)
          AND NOT EXISTS (SELECT 1 FROM live_products product
                            JOIN connector_instances published ON published.id = product.instance_id
                           WHERE published.connector_id = instance.connector_id)
          AND EXISTS (SELECT 1 FROM connector_runs run WHERE run.instance_id = instance.id AND run.status = 'succeeded')`,
      [instanceId, DEMO_CONNECTOR_TITLE, DEMO_USER.email],
    );
    if (!pending) return;
    await this.products.publish(await this.demoUser(pending.owner_id), instanceId, {
      table: pending.output_table_name,
      title: DEMO_PRODUCT_TITLE,
      description:
        'Readings of five air-quality stations, refreshed every five minutes from a connection. ' +
        'A live product: each refresh is a new version, and the listing says when it was last updated.',
      category: 'Environment',
      keywords: ['demo', 'live', 'air quality'],
      licence: 'CC0-1.0',
      dictionary: {
        station: 'Name of the measuring station',
        measured_at: 'When the reading was taken (UTC, to the minute)',
        pm25: 'Fine particulate matter, µg/m³',
        temperature_c: 'Air temperature, °C',
      },
    });
  }

  private async demoUser(userId: string) {
    const [user]: Array<{ id: string; email: string; name: string }> = await this.dataSource.query(
      `SELECT id, email, name FROM users WHERE id = $1`,
      [userId],
    );
    return { id: user.id, email: user.email, name: user.name, proUser: true, blogEditor: false };
  }
}
