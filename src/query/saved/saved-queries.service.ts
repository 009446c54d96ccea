import { BadRequestException, ConflictException, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AccessGate } from '../../access/access-gate.service';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import { isUniqueViolation } from '../../database/sql';
import type { SaveQueryDto } from './dto/save-query.dto';
import type { UpdateSavedQueryDto } from './dto/update-saved-query.dto';
import { SavedQuery } from './entities/saved-query.entity';
import type { SavedQueryResponse } from './saved-query.response';

/** Saved queries per user: far more than a person keeps at hand, a bound for a script gone wrong. */
export const SAVED_QUERIES_PER_USER = 500;

/** The queries a user kept under a name; each one only ever reaches its owner (AccessGate). */
@Injectable()
export class SavedQueriesService {
  constructor(
    @InjectRepository(SavedQuery) private readonly saved: Repository<SavedQuery>,
    private readonly access: AccessGate,
  ) {}

  async list(caller: AuthenticatedUser): Promise<SavedQueryResponse[]> {
    const queries = await this.saved.find({ where: { userId: caller.id }, order: { name: 'ASC' } });
    return queries.map(view);
  }

  async get(caller: AuthenticatedUser, id: string): Promise<SavedQueryResponse> {
    return view(await this.access.requireSavedQuery(caller, id));
  }

  async create(caller: AuthenticatedUser, input: SaveQueryDto): Promise<SavedQueryResponse> {
    if ((await this.saved.countBy({ userId: caller.id })) >= SAVED_QUERIES_PER_USER)
      throw new BadRequestException(
        `You can keep at most ${SAVED_QUERIES_PER_USER} saved queries: delete some first`,
      );
    const name = input.name.trim();
    return view(await this.store(name, () => this.saved.save({ userId: caller.id, name, sql: input.sql })));
  }

  async update(
    caller: AuthenticatedUser,
    id: string,
    input: UpdateSavedQueryDto,
  ): Promise<SavedQueryResponse> {
    const query = await this.access.requireSavedQuery(caller, id);
    if (input.name !== undefined) query.name = input.name.trim();
    if (input.sql !== undefined) query.sql = input.sql;
    return view(await this.store(query.name, () => this.saved.save(query)));
  }

  async remove(caller: AuthenticatedUser, id: string): Promise<void> {
    const query = await this.access.requireSavedQuery(caller, id);
    await this.saved.delete({ id: query.id, userId: caller.id });
  }

  private async store(name: string, save: () => Promise<SavedQuery>): Promise<SavedQuery> {
    try {
      return await save();
    } catch (error) {
      if (isUniqueViolation(error))
        throw new ConflictException(`You already have a saved query named "${name}"`);
      throw error;
    }
  }
}

function view(query: SavedQuery): SavedQueryResponse {
  return {
    id: query.id,
    name: query.name,
    sql: query.sql,
    created_at: query.createdAt.toISOString(),
    updated_at: query.updatedAt.toISOString(),
  };
}
