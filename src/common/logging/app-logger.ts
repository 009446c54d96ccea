import { ConsoleLogger, LogLevel } from '@nestjs/common';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/**
 * Nest's own start-up chatter (one line per module and per route, about 80 in all): useful when
 * debugging the wiring, noise at every start otherwise.
 */
const FRAMEWORK_BOOTSTRAP_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/** The levels written when LOG_LEVEL names the least important one still wanted. */
export function levelsUpTo(level: LogLevel): LogLevel[] {
  return LEVELS.slice(0, LEVELS.indexOf(level) + 1);
}

/**
 * Colours only for a terminal: a log redirected to a file or a pipe (a service manager, `> app.log`)
 * must not carry ANSI codes. NO_COLOR (no-color.org) turns them off on a terminal too.
 */
export function wantsColours(stream: { isTTY?: boolean } = process.stdout, env = process.env): boolean {
  return stream.isTTY === true && !env.NO_COLOR;
}

/** The console logger, with Nest's bootstrap lines moved down to debug. */
export class AppLogger extends ConsoleLogger {
  constructor(level: LogLevel, colours = wantsColours()) {
    super({ logLevels: levelsUpTo(level), colors: colours });
  }

  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams.at(-1);
    if (typeof context === 'string' && FRAMEWORK_BOOTSTRAP_CONTEXTS.has(context)) {
      this.debug(message, ...optionalParams);
      return;
    }
    super.log(message, ...optionalParams);
  }
}
