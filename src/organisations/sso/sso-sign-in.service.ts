import { randomBytes } from 'node:crypto';
import {
  BadGatewayException,
  BadRequestException,
  ForbiddenException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  UnauthorizedException,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Session } from 'express-session';
import * as oidc from 'openid-client';
import { DataSource } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import { SecretBox } from '../../common/crypto/secret-box';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { Sql, sqlOn } from '../../database/sql';
import { hashPassword } from '../../users/auth/passwords';
import { SignInService } from '../../users/auth/sign-in.service';
import { discoverProvider } from './sso-provider';
import {
  SSO_EMAIL_OUTSIDE_DOMAINS,
  SSO_EMAIL_UNVERIFIED,
  SSO_PROVIDER_REFUSED,
  SSO_PROVIDER_UNREACHABLE,
  SSO_STATE_INVALID,
  SSO_UNKNOWN_DOMAIN,
  SSO_UNKNOWN_ORGANISATION,
} from './sso.messages';

/** How long a started sign-in may take at the provider before its state is refused. */
export const SSO_STATE_LIFETIME_MS = 10 * 60_000;
export const SSO_CALLBACK_PATH = '/api/auth/sso/callback';

/** The one sign-in this browser has under way; taken off the session by the callback. */
interface PendingSso {
  organisationId: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  startedAt: number;
}

interface SsoSession extends Session {
  ssoPending?: PendingSso;
}

interface ProviderRow {
  organisation_id: string;
  issuer: string;
  client_id: string;
  client_secret_sealed: string;
}

/**
 * Sign-in through an organisation's OpenID Connect provider: authorization code with PKCE
 * (S256), state and nonce kept in this browser's session. openid-client checks the answer
 * (state, the id_token's signature, issuer, audience, expiry and nonce); this service then
 * requires a verified e-mail at one of the organisation's verified domains.
 */
@Injectable()
export class SsoSignInService {
  private readonly logger = new Logger(SsoSignInService.name);

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly secretBox: SecretBox,
    private readonly signIn: SignInService,
    private readonly audit: AuditService,
  ) {}

  startBySlug(request: Request, slug: string): Promise<URL> {
    return this.start(request, `o.slug = $1`, slug, SSO_UNKNOWN_ORGANISATION);
  }

  /** The organisation that verified the address's domain; unknown domains are told apart only by message. */
  startByEmail(request: Request, email: string): Promise<URL> {
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    return this.start(
      request,
      `o.id = (SELECT organisation_id FROM organisation_sso_domains WHERE domain = $1 AND verified_at IS NOT NULL)`,
      domain,
      SSO_UNKNOWN_DOMAIN,
    );
  }

  /**
   * The provider sent the browser back. The pending sign-in leaves the session first, so a
   * callback replayed (or a second tab's) finds none: 400. Answers the organisation's id.
   */
  async complete(request: Request, response: Response): Promise<string> {
    const session = request.session as SsoSession;
    const pending = session.ssoPending;
    delete session.ssoPending;
    if (!pending || Date.now() - pending.startedAt > SSO_STATE_LIFETIME_MS) {
      throw new BadRequestException(SSO_STATE_INVALID);
    }
    const provider = await this.provider(sqlOn(this.dataSource), `o.id = $1`, pending.organisationId);
    if (!provider) throw new BadRequestException(SSO_STATE_INVALID);
    const configuration = await this.discover(provider);
    const currentUrl = new URL(request.originalUrl, this.config.appOrigin);
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (error) {
      throw this.refusal(error, provider.organisation_id);
    }
    if (!claims) throw new UnauthorizedException(SSO_PROVIDER_REFUSED);
    if (claims.email_verified !== true || typeof claims.email !== 'string') {
      throw new ForbiddenException(SSO_EMAIL_UNVERIFIED);
    }
    const userId = await this.userFor(provider.organisation_id, claims.email, claims);
    await this.signIn.afterSingleSignOn(request, response, userId, {
      method: 'sso',
      organisation_id: provider.organisation_id,
    });
    return provider.organisation_id;
  }

  private async start(request: Request, where: string, value: string, unknown: string): Promise<URL> {
    const provider = await this.provider(sqlOn(this.dataSource), where, value);
    if (!provider) throw new NotFoundException(unknown);
    const configuration = await this.discover(provider);
    const pending: PendingSso = {
      organisationId: provider.organisation_id,
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
      startedAt: Date.now(),
    };
    (request.session as SsoSession).ssoPending = pending;
    return oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: new URL(SSO_CALLBACK_PATH, this.config.appOrigin).href,
      scope: 'openid email profile',
      response_type: 'code',
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
  }

  private async provider(sql: Sql, where: string, value: string): Promise<ProviderRow | null> {
    const { rows } = await sql<ProviderRow>(
      `SELECT s.organisation_id, s.issuer, s.client_id, s.client_secret_sealed
         FROM organisation_sso s JOIN organisations o ON o.id = s.organisation_id
        WHERE ${where}`,
      [value],
    );
    return rows[0] ?? null;
  }

  private async discover(provider: ProviderRow): Promise<oidc.Configuration> {
    try {
      return await discoverProvider(
        {
          issuer: provider.issuer,
          clientId: provider.client_id,
          clientSecret: this.secretBox.open(provider.client_secret_sealed),
        },
        {
          isProduction: this.config.isProduction,
          allowPrivateNetworks: this.config.connectorAllowPrivateNetworks,
        },
      );
    } catch (error) {
      this.logger.warn(
        `SSO discovery failed for organisation ${provider.organisation_id}: ${describe(error)}`,
      );
      throw new BadGatewayException(SSO_PROVIDER_UNREACHABLE);
    }
  }

  /** The provider could not be reached (502), or its answer failed a check (401). Logged without tokens. */
  private refusal(error: unknown, organisationId: string): Error {
    this.logger.warn(`SSO sign-in refused for organisation ${organisationId}: ${describe(error)}`);
    const unreachable =
      error instanceof TypeError || (error instanceof Error && error.name === 'TimeoutError');
    return unreachable
      ? new BadGatewayException(SSO_PROVIDER_UNREACHABLE)
      : new UnauthorizedException(SSO_PROVIDER_REFUSED);
  }

  /**
   * The account for the verified address, which must be at one of the organisation's verified
   * domains (the provider vouches for those only). An existing account signs in; a new one is
   * made, with a random password nobody knows (a password can be set by reset). Either way
   * someone not yet a member joins as viewer.
   */
  private async userFor(organisationId: string, email: string, claims: oidc.IDToken): Promise<string> {
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    const unusablePassword = await hashPassword(randomBytes(32).toString('base64url'));
    return this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      const { rows: domains } = await sql(
        `SELECT 1 FROM organisation_sso_domains WHERE organisation_id = $1 AND domain = $2 AND verified_at IS NOT NULL`,
        [organisationId, domain],
      );
      if (domains.length === 0) throw new ForbiddenException(SSO_EMAIL_OUTSIDE_DOMAINS);
      await sql(`SELECT 1 FROM organisations WHERE id = $1 FOR UPDATE`, [organisationId]);
      const { rows: users } = await sql<{ id: string }>(
        `UPDATE users SET email_verified_at = COALESCE(email_verified_at, now())
          WHERE lower(email) = lower($1) RETURNING id`,
        [email],
      );
      const userId =
        users[0]?.id ??
        (
          await sql<{ id: string }>(
            `INSERT INTO users (email, name, password_hash, email_verified_at) VALUES ($1, $2, $3, now()) RETURNING id`,
            [email, nameFrom(claims, email), unusablePassword],
          )
        ).rows[0].id;
      const { rows: joined } = await sql(
        `INSERT INTO organisation_memberships (organisation_id, user_id, role) VALUES ($1, $2, 'viewer')
         ON CONFLICT DO NOTHING RETURNING user_id`,
        [organisationId, userId],
      );
      if (joined.length > 0) {
        await this.audit.recordIn(
          sql,
          'organisation_member_joined',
          { organisation_id: organisationId, role: 'viewer', method: 'sso' },
          userId,
        );
      }
      return userId;
    });
  }
}

function nameFrom(claims: oidc.IDToken, email: string): string {
  const name = typeof claims.name === 'string' ? claims.name.trim().slice(0, 100) : '';
  return name || email.slice(0, email.lastIndexOf('@'));
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const code = (error as { code?: unknown }).code;
  return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message}`;
}
