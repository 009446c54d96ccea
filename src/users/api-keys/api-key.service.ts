import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { Repository } from 'typeorm';
import { AccessGate } from '../../access/access-gate.service';
import { SecretBox, sha256Hex } from '../../common/crypto/secret-box';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import { User } from '../entities/user.entity';
import { AuditService } from '../../audit/audit.service';

/** 32 random bytes: far beyond guessing, URL-safe for ?api_key= links. */
const API_KEY_BYTES = 32;

/** Personal API keys for streaming to BI tools: one per user, replaced on every generation. */
@Injectable()
export class ApiKeyService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly secretBox: SecretBox,
    private readonly gate: AccessGate,
    private readonly audit: AuditService,
  ) {}

  /** POST dev/apikey: only for the caller's own e-mail. */
  async generateFor(caller: AuthenticatedUser, email: string): Promise<string> {
    this.gate.requireOwnAccount(caller, email);
    return this.rotate(caller.id);
  }

  /**
   * Replaces the user's key; the old one stops working at once because its hash is overwritten.
   * Only the hash (for look-up) and an encrypted copy (to show its owner) are stored.
   */
  async rotate(userId: string): Promise<string> {
    const key = randomBytes(API_KEY_BYTES).toString('base64url');
    await this.users.update(
      { id: userId },
      { apiKeyHash: sha256Hex(key), apiKeyEncrypted: this.secretBox.seal(key) },
    );
    await this.audit.record('api_key_rotated', {}, userId);
    return key;
  }
}
