import { Module } from '@nestjs/common';
import { AccessController } from './access.controller';
import { AccessService } from './access.service';
import { PAYMENT_PROVIDER } from './payments/payment-provider';
import { TestPaymentProvider } from './payments/test-payment.provider';

/**
 * Who may see and read which dataset, and the grant/buy/remove calls. AccessService is the single
 * place for those checks; other modules (assets, stream) import this module and ask it.
 * A real payment provider replaces TestPaymentProvider behind PAYMENT_PROVIDER.
 */
@Module({
  controllers: [AccessController],
  providers: [AccessService, { provide: PAYMENT_PROVIDER, useClass: TestPaymentProvider }],
  exports: [AccessService],
})
export class AccessModule {}
