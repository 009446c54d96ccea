/**
 * Browser journeys: `npm run test:e2e` builds the app, the global setup starts it on a throw-away
 * database, and each suite drives Debian's headless Chromium through playwright-core.
 */
const base = require('../../jest.config.js');
const shared = base.projects[0];

module.exports = {
  rootDir: '../..',
  testEnvironment: 'node',
  transform: shared.transform,
  transformIgnorePatterns: shared.transformIgnorePatterns,
  moduleFileExtensions: shared.moduleFileExtensions,
  testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'],
  globalSetup: '<rootDir>/test/browser/setup/start-app.ts',
  globalTeardown: '<rootDir>/test/browser/setup/stop-app.ts',
  maxWorkers: 1,
  testTimeout: 90000,
};
