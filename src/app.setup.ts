import { INestApplication, Logger } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { carriesCookie } from './common/session/session-cookie';
import { ThrottledPgSessionStore } from './common/session/throttled-touch';
import session from 'express-session';
import helmet from 'helmet';
import passport from 'passport';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { DataSource } from 'typeorm';
import { acceptedBodyTypes } from './common/middleware/body-types.middleware';
import { boundedRequestBodies } from './common/middleware/request-body-limits.middleware';
import { compressedAnswers } from './common/middleware/compression.middleware';
import { databaseUnavailableAnswer } from './common/middleware/database-unavailable.middleware';
import { requestLogging } from './common/middleware/request-logging.middleware';
import { sameOriginOnly } from './common/middleware/same-origin.middleware';
import { absoluteSessionLifetime } from './common/middleware/session-lifetime.middleware';
import { SITE_FILES, spaHandlers } from './common/middleware/spa-fallback.middleware';
import { refreshLastSeen } from './users/sessions/session-details';
import type { AppConfig } from './config/app-config';
import { requestContext } from './database/request-context';
import { pgPool } from './database/sql';
import { JSON_BODY_LIMIT_BYTES, refuseOversizedJson } from './common/body-limits';
import { PRODUCT_NAME } from './common/product';
import { STRIPE_WEBHOOK_PATH } from './access/payments/stripe-payment.provider';
import { ListingPagesService } from './listings/listing-pages.service';

export const SESSION_COOKIE = 'dm.sid';
/** Single sign-on starts (and returns) by GET, with its state in a session it may have to begin. */
const SSO_SIGN_IN_PATHS = /^\/api\/auth\/sso\//;
/** Every API route is served under /api. */
export const API_PREFIX = 'api';
/** Browser features the app never uses, switched off for it and anything it could embed. */
const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()';

const sessionStoreLogger = new Logger('Sessions');
/**
 * Routes authenticated by API key alone (BI tools): they never read the session, so they skip
 * loading it, touching it (a write at most every few minutes, see throttled-touch.ts) and loading
 * its user.
 */
const API_KEY_ROUTES = /^\/api\/(stream|odata)(\/|$)/;
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
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

/**
 * The OpenAPI document of every controller: served at /api-documentation, and written to the
 * frontend by `npm run openapi` (src/cli/openapi.ts). The app's global prefix must be set first.
 */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const openApi = new DocumentBuilder()
    .setTitle(`${PRODUCT_NAME} API`)
    .setDescription(
      'Datasets, connectors, access, streaming and blog. Paths are relative to /api.\n\n' +
        // The page is the API's, outside the app: these links lead back into it.
        `[← Back to ${PRODUCT_NAME}](/) · [Connector documentation](/documentation)`,
    )
    .setVersion('1.0')
    .addCookieAuth(SESSION_COOKIE)
    .addApiKey({ type: 'apiKey', in: 'query', name: 'api_key' }, 'api_key')
    .build();
  return SwaggerModule.createDocument(app, openApi);
}

/** Runs middleware one after another, as app.use would, stopping at the first error. */
function runInTurn(
  handlers: RequestHandler[],
  request: Request,
  response: Response,
  done: NextFunction,
): void {
  const [first, ...rest] = handlers;
  if (!first) return done();
  first(request, response, (error?: unknown) =>
    error ? done(error) : runInTurn(rest, request, response, done),
  );
}

/** Everything between the Nest app and the network, shared by main.ts and the tests. */
export function configureApp(app: NestExpressApplication, config: AppConfig): INestApplication {
  const dataSource = app.get(DataSource);
  const pool = pgPool(dataSource);

  // First of all: the body is measured from its first byte on, whatever answers the request.
  app.use(
    boundedRequestBodies({
      maxUploadBytes: config.maxUploadBytes,
      idleSeconds: config.requestBodyIdleSeconds,
    }),
  );
  if (config.trustProxy) app.set('trust proxy', 1);
  app.disable('x-powered-by');
  app.use(helmet({ contentSecurityPolicy: contentSecurityPolicy(config), crossOriginEmbedderPolicy: false }));
  app.use((_request: Request, response: Response, next: NextFunction) => {
    response.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
    next();
  });
  app.use(requestLogging);
  // Before the sessions: the read routing looks at the session and user of the request it serves.
  app.use(requestContext);
  app.use(compressedAnswers());
  app.use(
    sameOriginOnly({
      appOrigin: config.appOrigin,
      sessionCookie: SESSION_COOKIE,
      loopbackAliases: !config.isProduction,
    }),
  );
  app.use(acceptedBodyTypes);
  app.use(refuseOversizedJson);
  // Stripe signs the exact bytes it sends: its webhook gets the raw body, which the JSON parser then skips.
  app.useBodyParser('raw', {
    type: (request) => request.url?.split('?')[0] === STRIPE_WEBHOOK_PATH,
    limit: JSON_BODY_LIMIT_BYTES,
  });
  app.useBodyParser('json', { limit: JSON_BODY_LIMIT_BYTES });
  const sessions = [
    session({
      name: SESSION_COOKIE,
      secret: config.sessionSecret,
      store: new ThrottledPgSessionStore({
        pool,
        tableName: 'session',
        createTableIfMissing: false,
        pruneSessionInterval: 15 * 60,
        // Through the app's logger (its level and format), not straight to the console: a pruning
        // that fails while the app shuts down is not worth a line on stderr.
        errorLog: (...parts: unknown[]) => sessionStoreLogger.warn(parts.map(String).join(' ')),
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
    absoluteSessionLifetime(config.sessionLifetimeDays * ONE_DAY_MS),
    passport.initialize(),
    passport.session(),
    refreshLastSeen,
  ];
  app.use((request: Request, response: Response, next: NextFunction) => {
    if (API_KEY_ROUTES.test(request.path)) return next();
    // A visitor's read without the session cookie has no session to load, and no read starts
    // one (only logins do: a POST, or the GET that starts single sign-on and keeps its state in
    // the session): the catalogue's anonymous traffic skips the whole stack.
    if (
      READ_METHODS.has(request.method) &&
      !carriesCookie(request, SESSION_COOKIE) &&
      !SSO_SIGN_IN_PATHS.test(request.path)
    )
      return next();
    runInTurn(sessions, request, response, next);
  });
  app.use(databaseUnavailableAnswer);

  app.setGlobalPrefix(API_PREFIX, { exclude: SITE_FILES });
  SwaggerModule.setup('api-documentation', app, () => createOpenApiDocument(app));

  const listingPages = app.get(ListingPagesService);
  const renderPage = listingPages.renderPage.bind(listingPages);
  for (const handler of spaHandlers(config.webRoot, renderPage)) app.use(handler);
  return app;
}
