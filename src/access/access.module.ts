import { Module } from '@nestjs/common';
import { AccessGate } from './access-gate.service';
import { AccessController } from './access.controller';
import { GrantsService } from './grants.service';
import { PAYMENT_PROVIDER } from './payments/payment-provider';
import { TestPaymentProvider } from './payments/test-payment.provider';

/**
 * Who may see, read and change what (AccessGate, asked by every other module), and the
 * grant/buy/remove calls (GrantsService). A real payment provider replaces TestPaymentProvider
 * behind PAYMENT_PROVIDER.
 */
@Module({
  controllers: [AccessController],
  providers: [AccessGate, GrantsService, { provide: PAYMENT_PROVIDER, useClass: TestPaymentProvider }],
  exports: [AccessGate, GrantsService],
})
export class AccessModule {}
