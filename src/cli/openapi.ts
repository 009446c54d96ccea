import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import * as prettier from 'prettier';
import { AppModule } from '../app.module';
import { API_PREFIX, createOpenApiDocument } from '../app.setup';
import { loadConfig } from '../config/app-config';
import { PROJECT_ROOT } from '../common/paths';

/**
 * `npm run openapi`: writes the API's OpenAPI document to frontend/src/api/openapi.json and the
 * TypeScript types generated from it (openapi-typescript) to frontend/src/api/schema.d.ts.
 * `npm run openapi -- --check` writes nothing and fails when either committed file is stale.
 *
 * The document comes from the controllers' and DTOs' decorators only, so the app is created in
 * preview mode: no provider is instantiated and no database is needed.
 */

const OUTPUT_DIR = join(PROJECT_ROOT, 'frontend', 'src', 'api');
const DOCUMENT_FILE = join(OUTPUT_DIR, 'openapi.json');
const TYPES_FILE = join(OUTPUT_DIR, 'schema.d.ts');

// Fixed values so nothing is read from the environment or written to the data folder; in
// preview mode no module uses them anyway.
const PREVIEW_CONFIG = loadConfig({
  NODE_ENV: 'development',
  SESSION_SECRET: 'openapi-preview-only-never-signs-anything',
  ENCRYPTION_KEY: '0'.repeat(64),
  SEED: 'false',
  SCHEDULER_ENABLED: 'false',
});

async function buildDocument(): Promise<OpenAPIObject> {
  const app = await NestFactory.create(
    AppModule.forRoot({ config: PREVIEW_CONFIG, databaseUrl: 'postgres://preview@127.0.0.1:1/none' }),
    { preview: true, logger: ['error'], abortOnError: false },
  );
  app.setGlobalPrefix(API_PREFIX);
  const document = createOpenApiDocument(app);
  await app.close();
  return document;
}

/** Object keys in alphabetical order at every level (array order is meaning, so it stays). */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

/** Formatted as `npm run format` would, so `prettier --check` accepts the generated files. */
async function formatted(text: string, file: string): Promise<string> {
  const options = await prettier.resolveConfig(file);
  return prettier.format(text, { ...options, filepath: file });
}

async function generate(): Promise<Map<string, string>> {
  const document = sortKeys(await buildDocument()) as OpenAPIObject;
  const types = COMMENT_HEADER + astToString(await openapiTS(document as never, { silent: true }));
  return new Map([
    [DOCUMENT_FILE, await formatted(JSON.stringify(document), DOCUMENT_FILE)],
    [TYPES_FILE, await formatted(types, TYPES_FILE)],
  ]);
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

async function main(): Promise<number> {
  const checkOnly = process.argv.includes('--check');
  const files = await generate();
  const stale = [...files].filter(([file, text]) => readOrEmpty(file) !== text).map(([file]) => file);
  if (checkOnly) {
    if (stale.length === 0) return 0;
    for (const file of stale) console.error(`${relative(PROJECT_ROOT, file)} is out of date with the API.`);
    console.error('Run `npm run openapi` and commit the result.');
    return 1;
  }
  for (const file of stale) {
    writeFileSync(file, files.get(file)!);
    console.log(`Wrote ${relative(PROJECT_ROOT, file)}`);
  }
  if (stale.length === 0) console.log('OpenAPI document and types are up to date.');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
