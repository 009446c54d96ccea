import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AccountPurchases } from '../../access/grant-result';

class ExportProfile {
  @ApiProperty()
  id: string;
  @ApiProperty()
  name: string;
  @ApiProperty()
  email: string;
  @ApiProperty()
  email_verified: boolean;
  @ApiProperty()
  pro_user: boolean;
  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

class ExportUpload {
  @ApiProperty()
  id: string;
  @ApiProperty({ enum: ['dataset', 'connector'] })
  type: 'dataset' | 'connector';
  @ApiProperty()
  title: string;
  @ApiProperty()
  price: number;
  @ApiProperty()
  is_public: boolean;
  @ApiProperty({ format: 'date-time' })
  created_at: string;
}

class ExportToken {
  @ApiProperty({ enum: ['api_key', 'named_token', 'session'] })
  kind: 'api_key' | 'named_token' | 'session';
  @ApiPropertyOptional({ description: 'A named token: its name, scopes and last use (never the token)' })
  name?: string;
  @ApiPropertyOptional({ type: [String] })
  scopes?: string[];
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' })
  last_used_at?: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'When it ends, if it does' })
  expires_at: string | null;
}

/** GET users/me/export: everything the app keeps about the user; secrets are listed, never shown. */
export class AccountExport {
  @ApiProperty({ format: 'date-time' })
  exported_at: string;
  @ApiProperty({ type: () => ExportProfile })
  profile: ExportProfile;
  @ApiProperty({ type: () => AccountPurchases })
  purchases: AccountPurchases;
  @ApiProperty({ type: () => [ExportUpload] })
  uploads: ExportUpload[];
  @ApiProperty({ type: () => [ExportToken] })
  tokens: ExportToken[];
}

/** DELETE users/me: what became of the account's datasets. */
export class AccountDeleted {
  @ApiProperty({ example: 'Account deleted.' })
  message: string;
  @ApiProperty({ description: 'Datasets deleted with their data' })
  datasets_deleted: number;
  @ApiProperty({ description: 'Datasets others paid for: archived, still readable by their holders' })
  datasets_kept_for_buyers: number;
}
