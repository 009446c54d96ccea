import { ApiProperty } from '@nestjs/swagger';

/** POST dev/apikey: the new personal API key for the stream links. */
export class ApiKeyResponse {
  @ApiProperty()
  api_key: string;
}
