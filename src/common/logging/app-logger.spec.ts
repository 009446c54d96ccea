import { AppLogger, levelsUpTo } from './app-logger';

describe('AppLogger', () => {
  let written: string[];
  let restore: () => void;

  beforeEach(() => {
    written = [];
    const capture = (chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    };
    const stdout = jest.spyOn(process.stdout, 'write').mockImplementation(capture);
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(capture);
    restore = () => {
      stdout.mockRestore();
      stderr.mockRestore();
    };
  });
  afterEach(() => restore());

  it("keeps Nest's bootstrap lines out of the default level and shows our own", () => {
    const logger = new AppLogger('log');
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('Mapped {/api/health, GET} route', 'RouterExplorer');
    logger.log('HealthController {/api/health}:', 'RoutesResolver');
    logger.log('Starting Nest application...', 'NestFactory');
    logger.log('Nest application successfully started', 'NestApplication');
    expect(written).toEqual([]);
    logger.log('Migrations: none pending', 'Bootstrap');
    expect(written).toHaveLength(1);
    expect(written[0]).toContain('Migrations: none pending');
  });

  it('writes the bootstrap lines at debug, and their warnings and errors at every level', () => {
    const debugLogger = new AppLogger('debug');
    debugLogger.log('Mapped {/api/health, GET} route', 'RouterExplorer');
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/DEBUG.*Mapped \{\/api\/health, GET\} route/);

    written.length = 0;
    const quietLogger = new AppLogger('warn');
    quietLogger.warn('A module warned', 'InstanceLoader');
    quietLogger.error('A route failed', undefined, 'RoutesResolver');
    expect(written.join('')).toContain('A module warned');
    expect(written.join('')).toContain('A route failed');
  });
});

describe('levelsUpTo', () => {
  it('keeps every level more important than the one named', () => {
    expect(levelsUpTo('warn')).toEqual(['fatal', 'error', 'warn']);
    expect(levelsUpTo('log')).toEqual(['fatal', 'error', 'warn', 'log']);
  });
});
