import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';

const toBoolean = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'boolean') return value;
  const text = String(value).trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(text)) return true;
  if (['false', '0', 'no', 'off'].includes(text)) return false;
  return value;
};

const toInteger = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  return /^-?\d+$/.test(String(value).trim()) ? Number(value) : value;
};

/** Every environment variable the app reads, with its rule. Documented in the README. */
export class EnvironmentVariables {
  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV?: 'development' | 'production' | 'test';

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// connection URL' })
  DATABASE_URL?: string;

  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'DATABASE_POOL_SIZE must be a whole number' })
  @Min(2)
  @Max(500)
  DATABASE_POOL_SIZE?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'DATABASE_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds' })
  @Min(100)
  @Max(3_600_000)
  DATABASE_STATEMENT_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'DATABASE_IDLE_TRANSACTION_MS must be a whole number of milliseconds' })
  @Min(100)
  @Max(3_600_000)
  DATABASE_IDLE_TRANSACTION_MS?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'DATABASE_ACQUIRE_TIMEOUT_MS must be a whole number of milliseconds' })
  @Min(100)
  @Max(600_000)
  DATABASE_ACQUIRE_TIMEOUT_MS?: number;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  @Matches(/^https?:\/\/[^/]+$/, { message: 'APP_ORIGIN must be scheme://host[:port] without a path' })
  APP_ORIGIN?: string;

  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'SESSION_SECRET must be at least 32 characters' })
  SESSION_SECRET?: string;

  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'SESSION_LIFETIME_DAYS must be a whole number of days' })
  @Min(1)
  @Max(365)
  SESSION_LIFETIME_DAYS?: number;

  @IsOptional()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'ENCRYPTION_KEY must be 64 hexadecimal characters (32 bytes)' })
  ENCRYPTION_KEY?: string;

  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @IsOptional()
  @IsString()
  MAIL_FROM?: string;

  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'SEED must be true or false' })
  SEED?: boolean;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(102400)
  MAX_UPLOAD_MB?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(409600)
  MAX_EXPANDED_UPLOAD_MB?: number;

  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'CONNECTOR_ALLOW_PRIVATE_NETWORKS must be true or false' })
  CONNECTOR_ALLOW_PRIVATE_NETWORKS?: boolean;

  @IsOptional()
  @IsUrl({ require_protocol: true, protocols: ['https', 'http'], require_tld: false })
  CONTACT_FORM_URL?: string;

  @IsOptional()
  @IsString()
  DATA_DIR?: string;

  /** A Markdown file with this deployment's terms of use, shown on /terms instead of the shipped text. */
  @IsOptional()
  @IsString()
  TERMS_FILE?: string;

  @IsOptional()
  @IsString()
  WEB_ROOT?: string;

  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'TRUST_PROXY must be true or false' })
  TRUST_PROXY?: boolean;

  @IsOptional()
  @IsIn(['error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL?: 'error' | 'warn' | 'log' | 'debug' | 'verbose';

  @IsOptional()
  @IsIn(['all', 'web', 'worker'], { message: 'PROCESS_ROLE must be all, web or worker' })
  PROCESS_ROLE?: 'all' | 'web' | 'worker';

  @IsOptional()
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(65535)
  WORKER_HEALTH_PORT?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'RUN_QUEUE_POLL_MS must be a whole number of milliseconds' })
  @Min(50)
  @Max(60_000)
  RUN_QUEUE_POLL_MS?: number;

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_READ_URL must be a postgres:// connection URL' })
  DATABASE_READ_URL?: string;

  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'DATABASE_READ_MAX_LAG_MS must be a whole number of milliseconds' })
  @Min(100)
  @Max(600_000)
  DATABASE_READ_MAX_LAG_MS?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'DATABASE_EXPECTED_REPLICAS must be a whole number' })
  @Min(0)
  @Max(16)
  DATABASE_EXPECTED_REPLICAS?: number;

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_DIRECT_URL must be a postgres:// connection URL' })
  DATABASE_DIRECT_URL?: string;

  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'SCHEDULER_ENABLED must be true or false' })
  SCHEDULER_ENABLED?: boolean;

  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'REQUEST_BODY_IDLE_SECONDS must be a whole number of seconds' })
  @Min(1)
  @Max(3600)
  REQUEST_BODY_IDLE_SECONDS?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'RUN_NOW_WAIT_SECONDS must be a whole number of seconds' })
  @Min(1)
  @Max(600)
  RUN_NOW_WAIT_SECONDS?: number;

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'QUERY_DATABASE_URL must be a postgres:// connection URL' })
  QUERY_DATABASE_URL?: string;

  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'QUERY_TIMEOUT_MS must be a whole number of milliseconds' })
  @Min(100)
  @Max(600_000)
  QUERY_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'QUERY_MAX_ROWS must be a whole number' })
  @Min(1)
  @Max(100_000_000)
  QUERY_MAX_ROWS?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'QUERY_MAX_CONCURRENT must be a whole number of queries' })
  @Min(1)
  @Max(1_000)
  QUERY_MAX_CONCURRENT?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'QUERY_MEMORY_MB must be a whole number of megabytes' })
  @Min(8)
  @Max(65_536)
  QUERY_MEMORY_MB?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'QUERY_QUEUE_MS must be a whole number of milliseconds' })
  @Min(0)
  @Max(60_000)
  QUERY_QUEUE_MS?: number;

  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'SCHEDULER_TICK_SECONDS must be a whole number of seconds' })
  @Min(1)
  @Max(3600)
  SCHEDULER_TICK_SECONDS?: number;

  @IsOptional()
  @IsIn(['test', 'stripe'], { message: 'PAYMENT_PROVIDER must be test or stripe' })
  PAYMENT_PROVIDER?: 'test' | 'stripe';

  @IsOptional()
  @Matches(/^(sk|rk)_(test|live)_\S+$/, {
    message: 'STRIPE_SECRET_KEY must be a Stripe secret or restricted key (sk_test_…, sk_live_…, rk_…)',
  })
  STRIPE_SECRET_KEY?: string;

  @IsOptional()
  @Matches(/^whsec_\S+$/, { message: 'STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_…)' })
  STRIPE_WEBHOOK_SECRET?: string;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] })
  @Matches(/^https?:\/\/[^/]+$/, { message: 'STRIPE_API_BASE must be scheme://host[:port] without a path' })
  STRIPE_API_BASE?: string;

  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'ALLOW_TEST_PAYMENTS_IN_PRODUCTION must be true or false' })
  ALLOW_TEST_PAYMENTS_IN_PRODUCTION?: boolean;

  /** Days a subscriber keeps access after a failed renewal (status past_due) before it ends. */
  @IsOptional()
  @Transform(toInteger)
  @IsInt({ message: 'SUBSCRIPTION_GRACE_DAYS must be a whole number of days' })
  @Min(0)
  @Max(60)
  SUBSCRIPTION_GRACE_DAYS?: number;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Variables whose values may hold a secret (a password inside a URL counts): never echoed. */
const SECRET_VARIABLES = new Set([
  'SESSION_SECRET',
  'ENCRYPTION_KEY',
  'DATABASE_URL',
  'DATABASE_READ_URL',
  'DATABASE_DIRECT_URL',
  'QUERY_DATABASE_URL',
  'SMTP_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
]);

/** The rejected value as an error message may show it: secrets only by their length. */
function describeValue(name: string, value: unknown): string {
  const text = String(value);
  return SECRET_VARIABLES.has(name)
    ? `a value of ${text.length} characters, not shown`
    : JSON.stringify(text);
}

/** Settings production never makes up (local runs generate them under DATA_DIR). */
const REQUIRED_IN_PRODUCTION = ['SESSION_SECRET', 'ENCRYPTION_KEY'];

/** Validates raw environment values; throws a ConfigError naming every bad and missing variable. */
export function parseEnvironment(raw: NodeJS.ProcessEnv): EnvironmentVariables {
  const defined = Object.fromEntries(
    Object.entries(raw).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = plainToInstance(EnvironmentVariables, defined);
  const errors = validateSync(parsed, { whitelist: false, skipMissingProperties: false });
  const lines = errors.map((error) => {
    const reasons = Object.values(error.constraints ?? {}).join('; ');
    return `  ${error.property}: ${reasons} (got ${describeValue(error.property, error.value)})`;
  });
  // Missing settings are named together with the bad ones, so one start shows everything to fix.
  if (defined.NODE_ENV === 'production') {
    const missing = REQUIRED_IN_PRODUCTION.filter((name) => defined[name] === undefined);
    if (missing.length > 0) lines.push(`  ${missing.join(', ')}: required when NODE_ENV=production`);
  }
  if (lines.length > 0) throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  return parsed;
}
