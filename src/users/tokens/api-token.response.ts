import { ApiProperty } from '@nestjs/swagger';
import { TOKEN_SCOPES } from './token-scopes';
import type { TokenScope } from './token-scopes';

/** A named token as its owner's list shows it: never the token itself. */
export class ApiTokenResponse {
  @ApiProperty()
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ enum: TOKEN_SCOPES, isArray: true })
  scopes: TokenScope[];

  @ApiProperty({ description: 'The first characters of the token' })
  hint: string;

  @ApiProperty()
  created_at: string;

  @ApiProperty({ type: String, nullable: true })
  expires_at: string | null;

  @ApiProperty({ type: String, nullable: true })
  last_used_at: string | null;
}

/** POST users/tokens: the new token, shown this once. */
export class CreatedApiTokenResponse extends ApiTokenResponse {
  @ApiProperty({ description: 'The token; it is not stored and cannot be shown again' })
  token: string;
}
