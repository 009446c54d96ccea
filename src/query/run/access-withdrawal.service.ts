import { Injectable, Logger } from '@nestjs/common';
import { StreamAccessService } from '../../stream/stream-access.service';
import { QueryRoles } from './query-roles.service';

/**
 * Brings users' query roles in step right after a change took access from them (a member left
 * or was removed, an organisation was deleted), rather than at their next query: what they may
 * read is asked of the AccessGate again, and their queries reading anything else end now.
 */
@Injectable()
export class QueryAccessWithdrawal {
  private readonly logger = new Logger(QueryAccessWithdrawal.name);

  constructor(
    private readonly access: StreamAccessService,
    private readonly roles: QueryRoles,
  ) {}

  /** Call after the change committed, so the gate reads it. */
  async withdraw(userIds: string[]): Promise<void> {
    for (const userId of userIds) {
      const readable = await this.access.readableSources({ id: userId });
      await this.roles.withdraw(
        userId,
        readable.map((source) => source.tableName),
      );
    }
  }

  /**
   * The same where the change already answered: a failure here is logged, not the caller's,
   * since every next query of theirs brings the role in step anyway.
   */
  async withdrawQuietly(userIds: string[]): Promise<void> {
    await this.withdraw(userIds).catch((error: Error) =>
      this.logger.error(`Query access not withdrawn at once: ${error.message}`),
    );
  }
}
