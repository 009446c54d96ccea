import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopChild, waitUntilListening } from '../../support/listening-child';
import { freePort } from './app-process';

/** Debian's haproxy package (installed by .ci/run). */
const HAPROXY = '/usr/sbin/haproxy';

/**
 * HAProxy in front of web processes, as docs/deployment.md has it: round robin, each checked every
 * half second and taken out after two failed checks in a row; a request whose connection is
 * refused is sent again to another process.
 */
export class HaProxy {
  private constructor(
    private readonly child: ChildProcess,
    private readonly folder: string,
    readonly port: number,
  ) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** `port`: one chosen beforehand, when the processes behind must know the public origin. */
  static async start(backendPorts: number[], port?: number): Promise<HaProxy> {
    port ??= await freePort();
    const folder = mkdtempSync(join(tmpdir(), 'dm-haproxy-'));
    const config = join(folder, 'haproxy.cfg');
    writeFileSync(
      config,
      [
        'global',
        '  maxconn 2000',
        'defaults',
        '  mode http',
        '  timeout connect 2s',
        '  timeout client 60s',
        '  timeout server 60s',
        '  option redispatch',
        '  retries 3',
        '  retry-on conn-failure empty-response',
        'frontend public',
        `  bind 127.0.0.1:${port}`,
        '  default_backend web',
        'backend web',
        '  balance roundrobin',
        // Connection checks, not docker/haproxy.cfg's GET /api/health: that one also takes out a process
        // whose database answers slowly, which on a test machine starved of CPU is every process now
        // and then. A killed process refuses connections: it fails these checks, and its requests go
        // to another process at once (retry-on) until it is out of the rotation.
        '  default-server check inter 500ms fall 2 rise 2',
        ...backendPorts.map((backend, index) => `  server web${index + 1} 127.0.0.1:${backend}`),
        '',
      ].join('\n'),
    );
    const child = spawn(HAPROXY, ['-db', '-f', config], { stdio: 'ignore' });
    const proxy = new HaProxy(child, folder, port);
    await waitUntilListening(child, port, 'haproxy').catch(async (error) => {
      await proxy.stop();
      throw error;
    });
    return proxy;
  }

  stop(): Promise<void> {
    return stopChild(this.child, this.folder);
  }
}
