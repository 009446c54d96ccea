import { Injectable } from '@nestjs/common';
import { generateSecret, generateURI, verify } from 'otplib';
import type { OneTimeCodeStrategy } from './one-time-code.strategy';

export const TOTP_ISSUER = 'Data Marketplace';
/** One 30-second step either side: phones whose clocks are a little off still sign in. */
const CLOCK_DRIFT_SECONDS = 30;

/** TOTP (RFC 6238: SHA-1, 6 digits, 30 seconds), what every authenticator app speaks. */
@Injectable()
export class TotpStrategy implements OneTimeCodeStrategy {
  newSecret(): string {
    return generateSecret();
  }

  provisioningUri(secret: string, accountName: string): string {
    return generateURI({ issuer: TOTP_ISSUER, label: accountName, secret });
  }

  async verify(secret: string, code: string, afterTimeStep?: number): Promise<number | undefined> {
    const token = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(token)) return undefined;
    const result = await verify({ secret, token, epochTolerance: CLOCK_DRIFT_SECONDS, afterTimeStep });
    // The functional API answers HOTP or TOTP results; a TOTP check carries its time step.
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  }
}
