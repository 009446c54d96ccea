import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { SessionGuard } from '../common/guards/session.guard';
import { AccessService } from './access.service';
import { AssetIdDto } from './dto/asset-id.dto';
import type { GrantResult, RemoveResult } from './grant-result';

@ApiTags('access')
@Controller('access')
export class AccessController {
  constructor(private readonly access: AccessService) {}

  /** The caller's access list: ids of every dataset they hold (owned included); empty for a visitor. */
  @Get('my')
  my(@CurrentUser() user: AuthenticatedUser | undefined): Promise<string[]> {
    return this.access.myAssetIds(user?.id);
  }

  @Post('grant')
  @HttpCode(200)
  @UseGuards(SessionGuard)
  grant(@CurrentUser() user: AuthenticatedUser, @Body() input: AssetIdDto): Promise<GrantResult> {
    return this.access.grant(user.id, input.assetId);
  }

  @Post('remove')
  @HttpCode(200)
  @UseGuards(SessionGuard)
  remove(@CurrentUser() user: AuthenticatedUser, @Body() input: AssetIdDto): Promise<RemoveResult> {
    return this.access.remove(user.id, input.assetId);
  }
}
