import { Controller, Get, HttpCode, Inject, NotFoundException, Param, Post, UseGuards } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import { SessionGuard } from '../../common/guards/session.guard';
import { PAYMENT_PROVIDER, PaymentProvider } from '../payments/payment-provider';
import { SubscriptionView } from './subscription-view';
import { SubscriptionsService } from './subscriptions.service';

/** The buyer's subscriptions to datasets with a recurring price. */
@ApiTags('subscriptions')
@Controller('subscriptions')
@UseGuards(SessionGuard)
export class SubscriptionsController {
  constructor(
    private readonly subscriptions: SubscriptionsService,
    @Inject(PAYMENT_PROVIDER) private readonly payments: PaymentProvider,
  ) {}

  /** The caller's subscriptions, newest first, with whether each gives access now. */
  @Get()
  @ApiOkResponse({ type: [SubscriptionView] })
  list(@CurrentUser() user: AuthenticatedUser): Promise<SubscriptionView[]> {
    return this.subscriptions.list(user.id);
  }

  /** Cancels at the end of the current period; access lasts until then. */
  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOkResponse({ type: SubscriptionView })
  @ApiNotFoundResponse({ description: 'No subscription of the caller has this id' })
  cancel(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<SubscriptionView> {
    return this.subscriptions.cancel(user.id, id);
  }

  /** Development with the test provider only: the period renews and is paid now. */
  @Post(':id/renew-now')
  @HttpCode(200)
  @ApiOkResponse({ type: SubscriptionView })
  @ApiNotFoundResponse({
    description: 'Not the test payment provider, or no such subscription of the caller',
  })
  renewNow(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<SubscriptionView> {
    this.requireTestProvider();
    return this.subscriptions.renewNow(user.id, id);
  }

  /** Development with the test provider only: the renewal's charge fails and the grace period starts. */
  @Post(':id/fail-renewal')
  @HttpCode(200)
  @ApiOkResponse({ type: SubscriptionView })
  @ApiNotFoundResponse({
    description: 'Not the test payment provider, or no such subscription of the caller',
  })
  failRenewal(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string): Promise<SubscriptionView> {
    this.requireTestProvider();
    return this.subscriptions.failRenewal(user.id, id);
  }

  /** The simulations exist only where no real money moves through a real provider. */
  private requireTestProvider(): void {
    if (this.payments.name !== 'test') throw new NotFoundException();
  }
}
