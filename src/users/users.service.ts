import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Not, Repository } from 'typeorm';
import { SecretBox, sha256Hex } from '../common/crypto/secret-box';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { isUuid } from '../common/uuid';
import { User } from './entities/user.entity';
import type { MeResponse } from './me-response';

/** Generated keys are 43 characters; anything far longer cannot be one and is not worth hashing. */
const MAX_API_KEY_LENGTH = 200;

/** Looks users up for the rest of the app (sessions, API-key guard, seed). */
@Injectable()
export class UsersService {
  private readonly logger = new Logger(UsersService.name);

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly secretBox: SecretBox,
  ) {}

  static toAuthenticatedUser(user: User): AuthenticatedUser {
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      proUser: user.proUser,
      blogEditor: user.blogEditor,
    };
  }

  async findById(id: string): Promise<AuthenticatedUser | null> {
    if (!isUuid(id)) return null;
    const user = await this.users.findOneBy({ id });
    return user ? UsersService.toAuthenticatedUser(user) : null;
  }

  /**
   * The owner of a personal API key (used by the stream module's API-key guard), or null for an
   * unknown or replaced key. Only the key's SHA-256 is compared, so the key itself is never stored.
   */
  async findByApiKey(key: string): Promise<AuthenticatedUser | null> {
    if (typeof key !== 'string' || key.length === 0 || key.length > MAX_API_KEY_LENGTH) return null;
    const user = await this.users.findOneBy({ apiKeyHash: sha256Hex(key), emailVerifiedAt: Not(IsNull()) });
    return user ? UsersService.toAuthenticatedUser(user) : null;
  }

  /** Case-insensitive e-mail look-up, including the password hash for checking credentials. */
  findByEmailWithPassword(email: string): Promise<User | null> {
    return this.users
      .createQueryBuilder('user')
      .addSelect(['user.passwordHash', 'user.credentialsEndedAt'])
      .where('lower(user.email) = lower(:email)', { email })
      .getOne();
  }

  findByEmail(email: string): Promise<User | null> {
    return this.users
      .createQueryBuilder('user')
      .where('lower(user.email) = lower(:email)', { email })
      .getOne();
  }

  /** What GET users/me shows its owner, with the API key decrypted. */
  async profile(id: string): Promise<MeResponse | null> {
    const user = await this.users
      .createQueryBuilder('user')
      .addSelect('user.apiKeyEncrypted')
      .where('user.id = :id', { id })
      .getOne();
    if (!user) return null;
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      api_key: this.revealApiKey(user),
      pro_user: user.proUser ? 1 : 0,
      blog_editor: user.blogEditor ? 1 : 0,
    };
  }

  private revealApiKey(user: User): string | null {
    if (!user.apiKeyEncrypted) return null;
    try {
      return this.secretBox.open(user.apiKeyEncrypted);
    } catch {
      // Sealed with another ENCRYPTION_KEY: the owner simply generates a new key.
      this.logger.warn(`API key of user ${user.id} cannot be decrypted with the current ENCRYPTION_KEY`);
      return null;
    }
  }
}
