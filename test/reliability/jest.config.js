/**
 * Load and fault suites (`npm run test:reliability`): they start real app processes from dist/,
 * kill and restart them, so they run one at a time and apart from `npm test`.
 */
const base = require('../../jest.config.js');
const shared = base.projects[0];

module.exports = {
  rootDir: '../..',
  testEnvironment: 'node',
  transform: shared.transform,
  transformIgnorePatterns: shared.transformIgnorePatterns,
  moduleFileExtensions: shared.moduleFileExtensions,
  testMatch: ['<rootDir>/test/reliability/**/*.reliability-spec.ts'],
  globalSetup: '<rootDir>/test/reliability/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/reliability/setup/global-teardown.ts',
  maxWorkers: 1,
  testTimeout: 180000,
};
