import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AppModule } from '../../../src/app.module';
import { configureApp } from '../../../src/app.setup';
import { ConnectorEngine } from '../../../src/connectors/engine/connector-engine';
import { DEFAULT_ENGINE_LIMITS } from '../../../src/connectors/engine/engine-limits';
import { closeWithinBound, testConfig, testDatabaseUrl, TestApp } from '../../support/test-app';

/**
 * The whole app with private networks refused, except for one host name exempted by the engine's
 * own `allowedHosts` (the way the engine-level SSRF suite lets a first hop reach the loopback fake
 * server). Only the engine differs from createTestApp; everything else is the real app.
 */
export async function createTestAppExempting(host: string): Promise<TestApp> {
  const config = testConfig({ CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'false' });
  const engine = new ConnectorEngine({
    ...DEFAULT_ENGINE_LIMITS,
    allowedHosts: [host],
    retries: 0,
    timeoutMs: 5000,
  });
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot({ config, databaseUrl: testDatabaseUrl() })],
  })
    .overrideProvider(ConnectorEngine)
    .useValue(engine)
    .compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({ logger: false });
  configureApp(app, config);
  await app.init();
  const server = app.getHttpServer();
  return {
    app,
    config,
    dataSource: app.get(DataSource),
    http: request(server),
    agent: () => request.agent(server),
    close: async () => {
      await closeWithinBound(app);
      engine.destroy();
    },
  };
}
