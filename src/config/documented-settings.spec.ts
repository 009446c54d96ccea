import { getMetadataStorage } from 'class-validator';
import { load } from 'js-yaml';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EnvironmentVariables } from './environment';

const ROOT = join(__dirname, '..', '..');

function read(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/** Every variable the app's configuration reads: each property of the validated class. */
function configuredSettings(): string[] {
  const rules = getMetadataStorage().getTargetValidationMetadatas(EnvironmentVariables, '', true, false);
  return [...new Set(rules.map((rule) => rule.propertyName))].sort();
}

/** The variables named in the first column of the table under `heading` in a Markdown file. */
function settingsTable(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no section "${heading}"`);
  const section = markdown.slice(start + heading.length + 2).split(/\n#{1,3} /)[0];
  const names = [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` /gm)].map((match) => match[1]);
  return [...new Set(names)].sort();
}

interface ComposeService {
  image?: string;
  build?: { dockerfile?: string };
  entrypoint?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  container_name?: string;
}

const compose = load(read('docker/compose.yml')) as { services: Record<string, ComposeService> };
/** The services that run the app's own image. */
const appServices = Object.entries(compose.services).filter(
  ([, service]) => service.build?.dockerfile === 'docker/Dockerfile',
);

describe('settings: what the configuration reads is what the documents and docker/compose.yml name', () => {
  const settings = configuredSettings();

  it('reads the settings of a deployment (a sanity check of the list itself)', () => {
    expect(settings).toEqual(
      expect.arrayContaining(['PROCESS_ROLE', 'DATABASE_URL', 'DATABASE_READ_URL', 'DATABASE_DIRECT_URL']),
    );
  });

  it("docs/deployment.md's settings table names every setting and no other", () => {
    expect(settingsTable(read('docs/deployment.md'), '## Settings')).toEqual(settings);
  });

  it("the README's configuration table names every setting and no other", () => {
    expect(settingsTable(read('README.md'), '## Configuration')).toEqual(settings);
  });

  it('docker/compose.yml sets only variables the app reads, in every service of its image', () => {
    expect(appServices.map(([name]) => name).sort()).toEqual(['web', 'worker']);
    for (const [, service] of appServices) {
      const unknown = Object.keys(service.environment ?? {}).filter((name) => !settings.includes(name));
      expect(unknown).toEqual([]);
    }
  });

  it("docker/Dockerfile's defaults are settings the app reads", () => {
    const defaults = [...read('docker/Dockerfile').matchAll(/^(?:ENV\s+|\s+)([A-Z][A-Z0-9_]*)=/gm)];
    expect(defaults.length).toBeGreaterThan(0);
    expect(defaults.map((match) => match[1]).filter((name) => !settings.includes(name))).toEqual([]);
  });
});

describe('docker/compose.yml: the topology of docs/deployment.md', () => {
  const { services } = compose;

  it('has a primary, a streaming replica, PgBouncer, web processes, a worker and HAProxy', () => {
    expect(Object.keys(services).sort()).toEqual(['db', 'pooler', 'proxy', 'replica', 'web', 'worker']);
    expect(services.db.image).toMatch(/^postgres:/);
    expect(services.replica.image).toBe(services.db.image);
    expect(services.replica.entrypoint?.join(' ')).toMatch(/pg_basebackup -h db .* -R /);
    expect(services.pooler.build?.dockerfile).toBe('docker/pgbouncer.Dockerfile');
    expect(services.proxy.image).toMatch(/^haproxy:/);
  });

  it('web processes scale (--scale web=N): no fixed name or host port, HAProxy finds each one', () => {
    expect(services.web.container_name).toBeUndefined();
    expect(services.web.ports).toBeUndefined();
    const haproxy = read('docker/haproxy.cfg');
    expect(haproxy).toMatch(/^\s*server-template web 1-\d+ web:3000/m);
    expect(haproxy).toMatch(/^\s*option httpchk GET \/api\/health/m);
  });

  it('web processes read through the pooler and the replica, the worker goes straight to the primary', () => {
    const web = services.web.environment ?? {};
    const worker = services.worker.environment ?? {};
    expect(web.PROCESS_ROLE).toBe('web');
    expect(web.DATABASE_URL).toMatch(/@pooler:6432\//);
    expect(web.DATABASE_DIRECT_URL).toMatch(/@db:5432\//);
    expect(web.DATABASE_READ_URL).toMatch(/@replica:5432\//);
    expect(worker.PROCESS_ROLE).toBe('worker');
    expect(worker.DATABASE_URL).toMatch(/@db:5432\//);
    expect(read('docker/pgbouncer.ini')).toMatch(/^pool_mode = transaction$/m);
  });

  it('every process shares one session secret and encryption key', () => {
    for (const [, service] of appServices) {
      expect(service.environment?.SESSION_SECRET).toBe('${SESSION_SECRET:?set SESSION_SECRET}');
      expect(service.environment?.ENCRYPTION_KEY).toBe('${ENCRYPTION_KEY:?set ENCRYPTION_KEY}');
    }
  });
});
