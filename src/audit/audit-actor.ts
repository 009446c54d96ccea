import type { Request } from 'express';
import { sha256Hex } from '../common/crypto/secret-box';
import { apiKeyOf } from '../common/api-key-of';
import { NAMED_TOKEN_PREFIX } from '../users/tokens/token-scopes';

/** Who acted and from where, as the audit log stores it. */
export interface AuditActor {
  credentialKind: 'session' | 'api_key' | 'api_token' | 'none';
  /** The session's public id (the hash the Sessions list shows) or the named token's id. */
  credentialId: string | null;
  ip: string | null;
  userAgent: string | null;
}

const MAX_USER_AGENT_LENGTH = 512;

/**
 * Reads the acting credential off the request: a named token by its id (looked up by hash by
 * the caller), the personal key by kind only (it has no id), a session by the hash of its id,
 * never the secret itself. The address is the one Express resolves (trusting the configured proxy).
 */
export function auditActorOf(request: Request | undefined): AuditActor & { tokenHash?: string } {
  if (!request) return { credentialKind: 'none', credentialId: null, ip: null, userAgent: null };
  const where = {
    ip: request.ip ?? null,
    userAgent: (request.headers['user-agent'] ?? '').slice(0, MAX_USER_AGENT_LENGTH) || null,
  };
  const key = request.isAuthenticated?.() ? undefined : apiKeyOf(request);
  if (key?.startsWith(NAMED_TOKEN_PREFIX))
    return { credentialKind: 'api_token', credentialId: null, tokenHash: sha256Hex(key), ...where };
  if (key) return { credentialKind: 'api_key', credentialId: null, ...where };
  if (request.isAuthenticated?.() && request.sessionID)
    return { credentialKind: 'session', credentialId: sha256Hex(request.sessionID), ...where };
  return { credentialKind: 'none', credentialId: null, ...where };
}
