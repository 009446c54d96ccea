import { randomBytes } from 'node:crypto';
import {
  BadRequestException,
  ConflictException,
  GoneException,
  Inject,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import { SecretBox, sha256Hex } from '../../common/crypto/secret-box';
import { RateLimiterService, RateLimitRule } from '../../common/rate-limit/rate-limiter.service';
import { isUuid } from '../../common/uuid';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { isUniqueViolation, Sql, sqlOn } from '../../database/sql';
import { MailService } from '../../users/mail/mail.service';
import { lockedRoleOf, requireManager, roleOf } from '../membership-rules';
import { AddDomainDto } from './dto/add-domain.dto';
import { SsoDomainResponse, SsoSettingsResponse } from './dto/sso.response';
import { UpdateSsoDto } from './dto/update-sso.dto';
import { domainVerificationMail } from './domain-verification-mail';
import { issuerProblem } from './issuer-policy';
import {
  DOMAIN_ADDED_ALREADY,
  DOMAIN_ADDRESS_ELSEWHERE,
  DOMAIN_ADDRESS_NOT_ADMINISTRATIVE,
  DOMAIN_LINK_EXPIRED,
  DOMAIN_LINK_INVALID,
  DOMAIN_NOT_FOUND,
  DOMAIN_TAKEN,
  SSO_REQUIRE_NEEDS_DOMAIN,
  SSO_SETTINGS_INCOMPLETE,
} from './sso.messages';

export const DOMAIN_LINK_LIFETIME_DAYS = 7;
/** Verification mails one user may have sent per hour: the app must not become a mailer. */
export const DOMAIN_MAILS_PER_USER: RateLimitRule = { limit: 20, windowSeconds: 60 * 60 };
const TOO_MANY_DOMAIN_MAILS = 'Too many verification mails. Please try again later.';
/**
 * The addresses a domain's holder controls, the ones certificate authorities mail to validate a
 * domain (CA/Browser Forum baseline requirements). Any mailbox would do for a company's own
 * domain, but then one user of a shared mail provider (gmail.com) could claim all of its
 * addresses and sign in as any of them through a provider of their own.
 */
export const ADMINISTRATIVE_LOCAL_PARTS = ['admin', 'administrator', 'hostmaster', 'postmaster', 'webmaster'];

interface SettingsRow {
  issuer: string;
  client_id: string;
  required: boolean;
}

interface DomainRow {
  id: string;
  domain: string;
  verification_email: string;
  verified_at: Date | null;
}

/**
 * An organisation's OpenID Connect provider and verified e-mail domains, managed by its owners
 * and admins. The client secret is sealed before it is stored and never read back out here.
 */
@Injectable()
export class SsoSettingsService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly secretBox: SecretBox,
    private readonly mail: MailService,
    private readonly rateLimiter: RateLimiterService,
    private readonly audit: AuditService,
  ) {}

  async get(callerId: string, organisationId: string): Promise<SsoSettingsResponse> {
    const sql = sqlOn(this.dataSource);
    requireManager(await roleOf(sql, organisationId, callerId));
    return this.read(sql, organisationId);
  }

  async update(callerId: string, organisationId: string, input: UpdateSsoDto): Promise<SsoSettingsResponse> {
    if (input.issuer !== undefined) {
      const problem = issuerProblem(input.issuer, {
        isProduction: this.config.isProduction,
        allowPrivateNetworks: this.config.connectorAllowPrivateNetworks,
      });
      if (problem) throw new BadRequestException(problem);
    }
    return this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      requireManager(await lockedRoleOf(sql, organisationId, callerId));
      const current = await this.settings(sql, organisationId);
      const sealed = input.client_secret !== undefined ? this.secretBox.seal(input.client_secret) : null;
      if (!current) {
        if (!input.issuer || !input.client_id || !sealed)
          throw new BadRequestException(SSO_SETTINGS_INCOMPLETE);
        await sql(
          `INSERT INTO organisation_sso (organisation_id, issuer, client_id, client_secret_sealed)
           VALUES ($1, $2, $3, $4)`,
          [organisationId, input.issuer, input.client_id, sealed],
        );
      } else {
        await sql(
          `UPDATE organisation_sso
              SET issuer = COALESCE($2, issuer), client_id = COALESCE($3, client_id),
                  client_secret_sealed = COALESCE($4, client_secret_sealed), updated_at = now()
            WHERE organisation_id = $1`,
          [organisationId, input.issuer ?? null, input.client_id ?? null, sealed],
        );
      }
      const changed = (['issuer', 'client_id', 'client_secret'] as const).filter(
        (field) => input[field] !== undefined,
      );
      if (changed.length > 0) {
        // Which fields changed, never their values: the secret must not reach the log.
        await this.audit.recordIn(sql, 'organisation_sso_configured', {
          organisation_id: organisationId,
          fields: changed,
        });
      }
      if (input.required !== undefined && input.required !== (current?.required ?? false)) {
        if (input.required && !(await this.hasVerifiedDomain(sql, organisationId))) {
          throw new BadRequestException(SSO_REQUIRE_NEEDS_DOMAIN);
        }
        await sql(
          `UPDATE organisation_sso SET required = $2, updated_at = now() WHERE organisation_id = $1`,
          [organisationId, input.required],
        );
        await this.audit.recordIn(
          sql,
          input.required ? 'organisation_sso_required' : 'organisation_sso_optional',
          {
            organisation_id: organisationId,
          },
        );
      }
      return this.read(sql, organisationId);
    });
  }

  /**
   * Adds the domain and mails a verification link to the named address at it. Adding a domain
   * again (not yet verified) sends a fresh link; one verified by another organisation is 409.
   */
  async addDomain(callerId: string, organisationId: string, input: AddDomainDto): Promise<SsoDomainResponse> {
    // Members first: who is not one learns nothing (404), and editors and viewers get 403.
    requireManager(await roleOf(sqlOn(this.dataSource), organisationId, callerId));
    const at = input.email.lastIndexOf('@');
    if (input.email.slice(at + 1) !== input.domain) throw new BadRequestException(DOMAIN_ADDRESS_ELSEWHERE);
    if (!ADMINISTRATIVE_LOCAL_PARTS.includes(input.email.slice(0, at))) {
      throw new BadRequestException(DOMAIN_ADDRESS_NOT_ADMINISTRATIVE);
    }
    await this.rateLimiter.consume(
      `sso-domain-mail:user:${callerId}`,
      DOMAIN_MAILS_PER_USER,
      TOO_MANY_DOMAIN_MAILS,
    );
    const token = randomBytes(32).toString('base64url');
    const { domain, organisationName } = await this.domainChecked(() =>
      this.dataSource.transaction(async (manager) => {
        const sql = sqlOn(manager);
        requireManager(await lockedRoleOf(sql, organisationId, callerId));
        await this.refuseTaken(sql, organisationId, input.domain);
        const { rows: existing } = await sql<DomainRow>(
          `SELECT id, domain, verification_email, verified_at FROM organisation_sso_domains
            WHERE organisation_id = $1 AND domain = $2`,
          [organisationId, input.domain],
        );
        if (existing[0]?.verified_at) throw new ConflictException(DOMAIN_ADDED_ALREADY);
        const values = [
          organisationId,
          input.domain,
          input.email,
          sha256Hex(token),
          `${DOMAIN_LINK_LIFETIME_DAYS} days`,
        ];
        const { rows } = existing[0]
          ? await sql<DomainRow>(
              `UPDATE organisation_sso_domains
                  SET verification_email = $3, token_hash = $4, token_expires_at = now() + $5::interval
                WHERE organisation_id = $1 AND domain = $2
                RETURNING id, domain, verification_email, verified_at`,
              values,
            )
          : await sql<DomainRow>(
              `INSERT INTO organisation_sso_domains
                      (organisation_id, domain, verification_email, token_hash, token_expires_at)
               VALUES ($1, $2, $3, $4, now() + $5::interval)
               RETURNING id, domain, verification_email, verified_at`,
              values,
            );
        await this.audit.recordIn(sql, 'organisation_sso_domain_added', {
          organisation_id: organisationId,
          domain_id: rows[0].id,
          domain: input.domain,
        });
        const { rows: names } = await sql<{ name: string }>(`SELECT name FROM organisations WHERE id = $1`, [
          organisationId,
        ]);
        return { domain: rows[0], organisationName: names[0].name };
      }),
    );
    await this.mail.send(
      domainVerificationMail({
        to: input.email,
        domain: input.domain,
        organisationName,
        appOrigin: this.config.appOrigin,
        token,
        lifetimeDays: DOMAIN_LINK_LIFETIME_DAYS,
      }),
    );
    return toDomain(domain);
  }

  async removeDomain(callerId: string, organisationId: string, domainId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const sql = sqlOn(manager);
      requireManager(await lockedRoleOf(sql, organisationId, callerId));
      const { rows } = isUuid(domainId)
        ? await sql<{ domain: string }>(
            `DELETE FROM organisation_sso_domains WHERE id = $1 AND organisation_id = $2 RETURNING domain`,
            [domainId, organisationId],
          )
        : { rows: [] };
      if (!rows[0]) throw new NotFoundException(DOMAIN_NOT_FOUND);
      // Requiring SSO without a verified domain would require it of nobody: it lapses.
      if (!(await this.hasVerifiedDomain(sql, organisationId))) {
        await sql(`UPDATE organisation_sso SET required = false WHERE organisation_id = $1`, [
          organisationId,
        ]);
      }
      await this.audit.recordIn(sql, 'organisation_sso_domain_removed', {
        organisation_id: organisationId,
        domain_id: domainId,
        domain: rows[0].domain,
      });
    });
  }

  /**
   * The mailed link, followed by whoever reads the address (no sign-in needed: they may have no
   * account). The link works once; a domain another organisation verified meanwhile is 409.
   */
  async verifyDomain(token: string): Promise<SsoDomainResponse> {
    return this.domainChecked(() =>
      this.dataSource.transaction(async (manager) => {
        const sql = sqlOn(manager);
        const { rows } = await sql<DomainRow & { organisation_id: string; expired: boolean }>(
          `SELECT id, organisation_id, domain, verification_email, verified_at, token_expires_at <= now() AS expired
             FROM organisation_sso_domains WHERE token_hash = $1 FOR UPDATE`,
          [sha256Hex(token)],
        );
        const found = rows[0];
        if (!found) throw new NotFoundException(DOMAIN_LINK_INVALID);
        if (found.expired) throw new GoneException(DOMAIN_LINK_EXPIRED);
        await this.refuseTaken(sql, found.organisation_id, found.domain);
        const { rows: verified } = await sql<DomainRow>(
          `UPDATE organisation_sso_domains SET verified_at = now(), token_hash = NULL, token_expires_at = NULL
            WHERE id = $1 RETURNING id, domain, verification_email, verified_at`,
          [found.id],
        );
        await this.audit.recordIn(sql, 'organisation_sso_domain_verified', {
          organisation_id: found.organisation_id,
          domain_id: found.id,
          domain: found.domain,
        });
        return toDomain(verified[0]);
      }),
    );
  }

  private async refuseTaken(sql: Sql, organisationId: string, domain: string): Promise<void> {
    const { rows } = await sql(
      `SELECT 1 FROM organisation_sso_domains
        WHERE domain = $1 AND organisation_id <> $2 AND verified_at IS NOT NULL`,
      [domain, organisationId],
    );
    if (rows.length > 0) throw new ConflictException(DOMAIN_TAKEN);
  }

  private async hasVerifiedDomain(sql: Sql, organisationId: string): Promise<boolean> {
    const { rows } = await sql(
      `SELECT 1 FROM organisation_sso_domains WHERE organisation_id = $1 AND verified_at IS NOT NULL LIMIT 1`,
      [organisationId],
    );
    return rows.length > 0;
  }

  private async settings(sql: Sql, organisationId: string): Promise<SettingsRow | null> {
    const { rows } = await sql<SettingsRow>(
      `SELECT issuer, client_id, required FROM organisation_sso WHERE organisation_id = $1`,
      [organisationId],
    );
    return rows[0] ?? null;
  }

  private async read(sql: Sql, organisationId: string): Promise<SsoSettingsResponse> {
    const settings = await this.settings(sql, organisationId);
    const { rows } = await sql<DomainRow>(
      `SELECT id, domain, verification_email, verified_at FROM organisation_sso_domains
        WHERE organisation_id = $1 ORDER BY domain`,
      [organisationId],
    );
    return {
      issuer: settings?.issuer ?? null,
      client_id: settings?.client_id ?? null,
      client_secret_set: settings !== null,
      required: settings?.required ?? false,
      domains: rows.map(toDomain),
    };
  }

  /** The unique indexes judge taken domains, also between two parallel requests. */
  private async domainChecked<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictException(DOMAIN_TAKEN);
      throw error;
    }
  }
}

function toDomain(row: DomainRow): SsoDomainResponse {
  return {
    id: row.id,
    domain: row.domain,
    verification_email: row.verification_email,
    verified: row.verified_at !== null,
    verified_at: row.verified_at?.toISOString() ?? null,
  };
}
