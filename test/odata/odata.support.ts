import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OData } from '@odata/client';
import type { SystemQueryOptions } from '@odata/client';
import { createTestApp, TestApp } from '../support/test-app';

/** The app listening on a real port, its public origin set to that port so next links lead back to it. */
export interface ListeningApp {
  testApp: TestApp;
  origin: string;
  serviceRoot: string;
  close(): Promise<void>;
}

export async function startListeningApp(): Promise<ListeningApp> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const testApp = await createTestApp({ APP_ORIGIN: origin });
  server.on('request', testApp.app.getHttpAdapter().getInstance());
  return {
    testApp,
    origin,
    serviceRoot: `${origin}/api/odata`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await testApp.close();
    },
  };
}

/** An OData v4 client of the service, sending the key in the X-API-Key header. */
export function odataClient(serviceRoot: string, apiKey: string, headers: Record<string, string> = {}) {
  return OData.New4({
    serviceEndpoint: `${serviceRoot}/`,
    commonHeaders: { 'X-API-Key': apiKey, ...headers },
  });
}

export type ODataClient = ReturnType<typeof odataClient>;

/** One collection response as the client hands it over. */
export interface CollectionPage {
  value: Array<Record<string, unknown>>;
  '@odata.nextLink'?: string;
  '@odata.count'?: number;
  error?: { code: string; message: string };
}

/**
 * Reads an entity set to the end with the client, following every `@odata.nextLink` (its
 * `$skiptoken`, with the same options), and answers every row and the pages it took.
 */
export async function readAllPages(
  client: ODataClient,
  entitySet: string,
  options: () => SystemQueryOptions,
): Promise<{ rows: Array<Record<string, unknown>>; pages: CollectionPage[] }> {
  const rows: Array<Record<string, unknown>> = [];
  const pages: CollectionPage[] = [];
  let skipToken: string | undefined;
  for (;;) {
    const params = options();
    if (skipToken) params.custom('$skiptoken', skipToken);
    const page = (await client.newRequest({ collection: entitySet, params })) as unknown as CollectionPage;
    if (page.error) throw new Error(`${page.error.code}: ${page.error.message}`);
    pages.push(page);
    rows.push(...page.value);
    const nextLink = page['@odata.nextLink'];
    if (!nextLink) return { rows, pages };
    skipToken = new URL(nextLink).searchParams.get('$skiptoken') ?? undefined;
    if (!skipToken) throw new Error(`next link without $skiptoken: ${nextLink}`);
    if (pages.length > 10_000) throw new Error('next links never end');
  }
}
