import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { databaseAnswers } from './database-round-trip';

/**
 * A worker serves no API, only this: `GET /health` answers 200 while the process and its database
 * answer, 503 when the database does not, so an orchestrator can restart a stuck worker.
 */
export async function startWorkerHealthServer(dataSource: DataSource, port: number): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/health') {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not Found"}');
      return;
    }
    void databaseAnswers(dataSource).then((up) => {
      response
        .writeHead(up ? 200 : 503, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ status: up ? 'ok' : 'unavailable', database: up ? 'up' : 'down', role: 'worker' }),
        );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => resolve());
  });
  return server;
}

/** The port the health server listens on (the one asked for, or the one given for port 0). */
export function healthPort(server: Server): number {
  return (server.address() as AddressInfo).port;
}
