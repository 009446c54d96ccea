import { Body, Controller, Header, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import { SessionGuard } from '../../common/guards/session.guard';
import { GenerateApiKeyDto } from '../dto/generate-api-key.dto';
import { ApiKeyResponse } from './api-key.response';
import { ApiKeyService } from './api-key.service';

@ApiTags('users')
@Controller('dev')
export class ApiKeyController {
  constructor(private readonly apiKeys: ApiKeyService) {}

  /** Generates a new personal API key; the previous one stops working immediately. */
  @Post('apikey')
  @HttpCode(200)
  @ApiOkResponse({ type: ApiKeyResponse })
  @Header('Cache-Control', 'no-store')
  @UseGuards(SessionGuard)
  async generate(
    @CurrentUser() user: AuthenticatedUser,
    @Body() input: GenerateApiKeyDto,
  ): Promise<ApiKeyResponse> {
    return { api_key: await this.apiKeys.generateFor(user, input.email) };
  }
}
