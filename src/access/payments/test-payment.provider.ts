import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { ChargeRequest, ChargeResult, PaymentProvider } from './payment-provider';

/** Test mode: every charge is approved at once and no money moves. */
@Injectable()
export class TestPaymentProvider implements PaymentProvider {
  readonly name = 'test';
  readonly testMode = true;

  async charge(_request: ChargeRequest): Promise<ChargeResult> {
    return { status: 'paid', reference: `test_${randomUUID()}`, testMode: true };
  }
}
