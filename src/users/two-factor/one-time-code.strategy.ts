/** A second factor that proves possession of a shared secret with a short code. */
export interface OneTimeCodeStrategy {
  /** A new random secret, in the form authenticator apps take as text. */
  newSecret(): string;
  /** The provisioning URI an authenticator app reads from the QR code. */
  provisioningUri(secret: string, accountName: string): string;
  /**
   * The time step the code belongs to when it is valid and newer than `afterTimeStep`
   * (a code already used must not work again), otherwise undefined.
   */
  verify(secret: string, code: string, afterTimeStep?: number): Promise<number | undefined>;
}

export const ONE_TIME_CODE_STRATEGY = Symbol('ONE_TIME_CODE_STRATEGY');
