import { Body, Controller, Get, HttpCode, Inject, Post, UseGuards } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { SessionGuard } from '../common/guards/session.guard';
import { GrantsService } from './grants.service';
import { GrantDto } from './dto/grant.dto';
import { AccountPurchases, CheckoutStarted, GrantResult, PaymentMode, RemoveResult } from './grant-result';
import { PAYMENT_PROVIDER, PaymentProvider } from './payments/payment-provider';

@ApiTags('access')
@Controller('access')
export class AccessController {
  constructor(
    private readonly grants: GrantsService,
    @Inject(PAYMENT_PROVIDER) private readonly payments: PaymentProvider,
  ) {}

  /** Which payment provider checks out paid datasets, so the checkout can say when it is test mode. */
  @Get('payments')
  @ApiOkResponse({ type: PaymentMode })
  paymentMode(): PaymentMode {
    return { provider: this.payments.name, test_mode: this.payments.testMode };
  }

  /** The caller's access list: ids of every dataset they hold (owned included); empty for a visitor. */
  @Get('my')
  @ApiOkResponse({ type: [String] })
  my(@CurrentUser() user: AuthenticatedUser | undefined): Promise<string[]> {
    return this.grants.myAssetIds(user);
  }

  /** What the caller got and bought: held datasets (with the order behind each) and every order. */
  @Get('purchases')
  @UseGuards(SessionGuard)
  @ApiOkResponse({ type: AccountPurchases })
  purchases(@CurrentUser() user: AuthenticatedUser): Promise<AccountPurchases> {
    return this.grants.account(user);
  }

  @Post('grant')
  @HttpCode(200)
  @UseGuards(SessionGuard)
  @ApiExtraModels(GrantResult, CheckoutStarted)
  @ApiOkResponse({
    schema: { oneOf: [{ $ref: getSchemaPath(GrantResult) }, { $ref: getSchemaPath(CheckoutStarted) }] },
    description:
      'Access granted: `{granted: true, assetId, already, reason, purchase?, organisationId?}`; with ' +
      '`organisationId`, for that organisation (the caller an editor, admin or owner of it), and every ' +
      'member reads it. With Stripe as the payment ' +
      'provider a paid dataset answers `{granted: false, assetId, checkout_url, purchase}` (purchase status ' +
      '`pending`) instead: the buyer pays on `checkout_url`, and access follows Stripe’s signed ' +
      '`checkout.session.completed` event at `POST /api/payments/stripe/webhook`.',
  })
  grant(
    @CurrentUser() user: AuthenticatedUser,
    @Body() input: GrantDto,
  ): Promise<GrantResult | CheckoutStarted> {
    if (input.organisationId !== undefined)
      return this.grants.grantForOrganisation(user, input.assetId, input.organisationId);
    return this.grants.grant(user, input.assetId);
  }

  @Post('remove')
  @HttpCode(200)
  @ApiOkResponse({ type: RemoveResult })
  @UseGuards(SessionGuard)
  remove(@CurrentUser() user: AuthenticatedUser, @Body() input: GrantDto): Promise<RemoveResult> {
    if (input.organisationId !== undefined)
      return this.grants.removeForOrganisation(user, input.assetId, input.organisationId);
    return this.grants.remove(user, input.assetId);
  }
}
