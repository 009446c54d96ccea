import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import { sha256Hex } from '../../common/crypto/secret-box';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import { isUuid } from '../../common/uuid';
import { ApiToken } from '../entities/api-token.entity';
import { ApiTokenResponse, CreatedApiTokenResponse } from './api-token.response';
import { CreateApiTokenDto } from './dto/create-api-token.dto';
import { NAMED_TOKEN_PREFIX, TokenScope } from './token-scopes';
import { AuditService } from '../../audit/audit.service';
import type { AuditDetail } from '../../audit/audit-event-type';

/** 32 random bytes, as the personal key: far beyond guessing, URL-safe for ?api_key= links. */
const TOKEN_BYTES = 32;
/** Longer than any token we issue: a look-up never hashes a huge value. */
const MAX_TOKEN_LENGTH = 100;
const HINT_LENGTH = NAMED_TOKEN_PREFIX.length + 6;
export const MAX_TOKENS_PER_USER = 50;
/** Last use is a coarse figure: a BI refresh paging through a table writes it once, not per page. */
const LAST_USED_GRANULARITY = '1 minute';
const DAY_MS = 24 * 60 * 60 * 1000;
export const TOKEN_NOT_FOUND = 'Token not found';

export interface TokenHolder {
  user: AuthenticatedUser;
  scopes: readonly TokenScope[];
}

function toResponse(token: ApiToken): ApiTokenResponse {
  return {
    id: token.id,
    name: token.name,
    scopes: token.scopes,
    hint: `${token.tokenHint}…`,
    created_at: token.createdAt.toISOString(),
    expires_at: token.expiresAt?.toISOString() ?? null,
    last_used_at: token.lastUsedAt?.toISOString() ?? null,
  };
}

/** Named tokens: created and shown once, listed with their last use, revoked by their owner. */
@Injectable()
export class ApiTokensService {
  constructor(
    @InjectRepository(ApiToken) private readonly tokens: Repository<ApiToken>,
    private readonly dataSource: DataSource,
    private readonly audit: AuditService,
  ) {}

  async list(userId: string): Promise<ApiTokenResponse[]> {
    const tokens = await this.tokens.find({ where: { userId }, order: { createdAt: 'DESC' } });
    return tokens.map(toResponse);
  }

  async create(userId: string, input: CreateApiTokenDto): Promise<CreatedApiTokenResponse> {
    return this.issue({ userId }, input, userId);
  }

  /** An organisation's tokens, newest first (the caller's right to see them is the gate's to decide). */
  async listForOrganisation(organisationId: string): Promise<ApiTokenResponse[]> {
    const tokens = await this.tokens.find({ where: { organisationId }, order: { createdAt: 'DESC' } });
    return tokens.map(toResponse);
  }

  /** A token that acts as the organisation, made by `creatorId` (an owner or admin of it). */
  createForOrganisation(
    organisationId: string,
    creatorId: string,
    input: CreateApiTokenDto,
  ): Promise<CreatedApiTokenResponse> {
    return this.issue({ organisationId }, input, creatorId);
  }

  /** Ends an organisation's token at once; another holder's token looks missing. */
  async revokeForOrganisation(organisationId: string, tokenId: string, actorId: string): Promise<void> {
    const result = isUuid(tokenId)
      ? await this.tokens.delete({ id: tokenId, organisationId })
      : { affected: 0 };
    if (!result.affected) throw new NotFoundException(TOKEN_NOT_FOUND);
    await this.audit.record(
      'api_token_revoked',
      { token_id: tokenId, organisation_id: organisationId },
      actorId,
    );
  }

  /** Makes a token for a user or an organisation, within the holder's limit, and records who did. */
  private async issue(
    holder: { userId: string } | { organisationId: string },
    input: CreateApiTokenDto,
    actorId: string,
  ): Promise<CreatedApiTokenResponse> {
    const token = `${NAMED_TOKEN_PREFIX}${randomBytes(TOKEN_BYTES).toString('base64url')}`;
    const expiresAt = input.expires_in_days ? new Date(Date.now() + input.expires_in_days * DAY_MS) : null;
    const created = await this.dataSource.transaction(async (manager) => {
      // One holder's creations take turns, so parallel requests cannot pass the limit together.
      if ('userId' in holder)
        await manager.query(`SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, [holder.userId]);
      else
        await manager.query(`SELECT 1 FROM organisations WHERE id = $1 FOR UPDATE`, [holder.organisationId]);
      if ((await manager.countBy(ApiToken, holder)) >= MAX_TOKENS_PER_USER)
        throw new BadRequestException(`At most ${MAX_TOKENS_PER_USER} tokens: revoke one first`);
      const saved = await manager.save(
        manager.create(ApiToken, {
          ...holder,
          createdBy: 'organisationId' in holder ? actorId : null,
          name: input.name,
          scopes: input.scopes,
          tokenHash: sha256Hex(token),
          tokenHint: token.slice(0, HINT_LENGTH),
          expiresAt,
        }),
      );
      const detail: AuditDetail =
        'organisationId' in holder
          ? { token_id: saved.id, organisation_id: holder.organisationId }
          : { token_id: saved.id };
      await this.audit.recordIn(manager, 'api_token_created', detail, actorId);
      return saved;
    });
    return { ...toResponse(created), token };
  }

  /** Ends a token at once; another user's token looks missing. */
  async revoke(userId: string, tokenId: string): Promise<void> {
    const result = isUuid(tokenId) ? await this.tokens.delete({ id: tokenId, userId }) : { affected: 0 };
    if (!result.affected) throw new NotFoundException(TOKEN_NOT_FOUND);
    await this.audit.record('api_token_revoked', { token_id: tokenId }, userId);
  }

  /**
   * The verified holder and scopes of a live named token; null for anything else. A user's token
   * acts as the user (verified accounts only); an organisation's as the organisation, whoever
   * made it and whether they are still a member.
   */
  async holderOf(token: string): Promise<TokenHolder | null> {
    if (!token.startsWith(NAMED_TOKEN_PREFIX) || token.length > MAX_TOKEN_LENGTH) return null;
    const [row] = await this.dataSource.query(
      `SELECT token.id AS token_id, token.scopes,
              token.last_used_at IS NULL OR token.last_used_at < now() - interval '${LAST_USED_GRANULARITY}' AS stale,
              users.id, users.email, users.name, users.pro_user, users.blog_editor,
              organisations.id AS organisation_id, organisations.name AS organisation_name
         FROM api_tokens token
         LEFT JOIN users ON users.id = token.user_id AND users.email_verified_at IS NOT NULL
         LEFT JOIN organisations ON organisations.id = token.organisation_id
        WHERE token.token_hash = $1 AND (users.id IS NOT NULL OR organisations.id IS NOT NULL)
          AND (token.expires_at IS NULL OR token.expires_at > now())`,
      [sha256Hex(token)],
    );
    if (!row) return null;
    if (row.stale) await this.tokens.update({ id: row.token_id }, { lastUsedAt: () => 'now()' });
    if (row.organisation_id)
      return {
        scopes: row.scopes,
        user: {
          id: row.organisation_id,
          organisationId: row.organisation_id,
          email: '',
          name: row.organisation_name,
          proUser: false,
          blogEditor: false,
        },
      };
    return {
      scopes: row.scopes,
      user: {
        id: row.id,
        email: row.email,
        name: row.name,
        proUser: row.pro_user,
        blogEditor: row.blog_editor,
      },
    };
  }
}
