import { AppLogger, levelsUpTo, wantsColours } from './app-logger';

/** The escape that starts every ANSI colour code. */
const ANSI_CODE = String.fromCharCode(27) + '[';

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

  it('writes no ANSI colour codes when the output is not a terminal', () => {
    new AppLogger('log', false).warn('Plain line', 'Bootstrap');
    expect(written.join('')).toContain('WARN');
    expect(written.join('')).not.toContain(ANSI_CODE);
    new AppLogger('log', true).warn('Coloured line', 'Bootstrap');
    expect(written.at(-1)).toContain(ANSI_CODE);
  });
});

describe('levelsUpTo', () => {
  it('keeps every level more important than the one named', () => {
    expect(levelsUpTo('warn')).toEqual(['fatal', 'error', 'warn']);
    expect(levelsUpTo('log')).toEqual(['fatal', 'error', 'warn', 'log']);
  });

  it('colours only a terminal without NO_COLOR', () => {
    expect(wantsColours({ isTTY: true }, {})).toBe(true);
    expect(wantsColours({ isTTY: false }, {})).toBe(false);
    expect(wantsColours({}, {})).toBe(false);
    expect(wantsColours({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
  });
});
