import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import connectPgSimple from 'connect-pg-simple';
import session from 'express-session';
import helmet from 'helmet';
import passport from 'passport';
import { DataSource } from 'typeorm';
import { acceptedBodyTypes } from './common/middleware/body-types.middleware';
import { databaseUnavailableAnswer } from './common/middleware/database-unavailable.middleware';
import { requestLogging } from './common/middleware/request-logging.middleware';
import { sameOriginOnly } from './common/middleware/same-origin.middleware';
import { absoluteSessionLifetime } from './common/middleware/session-lifetime.middleware';
import { spaHandlers } from './common/middleware/spa-fallback.middleware';
import type { AppConfig } from './config/app-config';
import { pgPool } from './database/sql';
import { JSON_BODY_LIMIT_BYTES } from './common/body-limits';

export const SESSION_COOKIE = 'dm.sid';
const ONE_DAY_MS = 24 * 60 * 60 * 1000;
/** Idle limit: a session unused for this long ends (each answer renews it, up to its lifetime). */
const SEVEN_DAYS_MS = 7 * ONE_DAY_MS;

function contentSecurityPolicy(config: AppConfig) {
  const contactFrame = config.contactFormUrl ? [new URL(config.contactFormUrl).origin] : [];
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // MUI (emotion) and TinyMCE insert style elements at run time.
      styleSrc: ["'self'", "'unsafe-inline'"],
      // Blog covers and dataset images may be any https URL.
      imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      frameSrc: ["'self'", ...contactFrame],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'self'"],
    },
  };
}

/** Everything between the Nest app and the network, shared by main.ts and the tests. */
export function configureApp(app: NestExpressApplication, config: AppConfig): INestApplication {
  const dataSource = app.get(DataSource);
  const pool = pgPool(dataSource);
  const PgSessionStore = connectPgSimple(session);

  if (config.trustProxy) app.set('trust proxy', 1);
  app.disable('x-powered-by');
  app.use(helmet({ contentSecurityPolicy: contentSecurityPolicy(config), crossOriginEmbedderPolicy: false }));
  app.use(requestLogging);
  app.use(sameOriginOnly(config.appOrigin, SESSION_COOKIE));
  app.use(acceptedBodyTypes);
  app.useBodyParser('json', { limit: JSON_BODY_LIMIT_BYTES });
  app.use(
    session({
      name: SESSION_COOKIE,
      secret: config.sessionSecret,
      store: new PgSessionStore({
        pool,
        tableName: 'session',
        createTableIfMissing: false,
        pruneSessionInterval: 15 * 60,
      }),
      resave: false,
      saveUninitialized: false,
      rolling: true,
      proxy: config.trustProxy,
      cookie: {
        httpOnly: true,
        sameSite: 'lax',
        secure: config.appOrigin.startsWith('https://') ? 'auto' : false,
        maxAge: SEVEN_DAYS_MS,
      },
    }),
  );
  app.use(absoluteSessionLifetime(config.sessionLifetimeDays * ONE_DAY_MS));
  app.use(passport.initialize());
  app.use(passport.session());
  app.use(databaseUnavailableAnswer);

  app.setGlobalPrefix('api');
  const openApi = new DocumentBuilder()
    .setTitle('Data Marketplace API')
    .setDescription('Datasets, connectors, access, streaming and blog. Paths are relative to /api.')
    .setVersion('1.0')
    .addCookieAuth(SESSION_COOKIE)
    .addApiKey({ type: 'apiKey', in: 'query', name: 'api_key' }, 'api_key')
    .build();
  SwaggerModule.setup('api-documentation', app, () => SwaggerModule.createDocument(app, openApi));

  for (const handler of spaHandlers(config.webRoot)) app.use(handler);
  return app;
}
