import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiKeyService } from '../../users/api-keys/api-key.service';
import { hashPassword } from '../../users/auth/passwords';
import { UsersService } from '../../users/users.service';
import { DEMO_USER } from './seed-context';

/** Creates (once) the verified demo user who is a pro user and a blog editor, with an API key. */
@Injectable()
export class DemoUserSeeder {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly apiKeys: ApiKeyService,
  ) {}

  async run(): Promise<string> {
    const existing = await this.users.findByEmail(DEMO_USER.email);
    if (existing) return existing.id;

    const [row] = await this.dataSource.query(
      `INSERT INTO users (email, name, password_hash, email_verified_at, pro_user, blog_editor)
       VALUES ($1, $2, $3, now(), true, true)
       ON CONFLICT ((lower(email))) DO NOTHING
       RETURNING id`,
      [DEMO_USER.email, DEMO_USER.name, await hashPassword(DEMO_USER.password)],
    );
    // Another process won the race between the look-up and the insert.
    if (!row) return (await this.users.findByEmail(DEMO_USER.email))!.id;
    await this.apiKeys.rotate(row.id);
    return row.id as string;
  }
}
