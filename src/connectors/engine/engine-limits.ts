/** Guard rails of the connector engine; tests shrink them, production keeps the defaults. */
export interface EngineLimits {
  /** Lift the refusal of loopback/private/link-local/metadata addresses (tests, self-hosted set-ups). */
  allowPrivateNetworks: boolean;
  /** Host names exempt from that refusal (one named internal API instead of every private network). */
  allowedHosts: string[];
  /**
   * Exact addresses (origin and path, any query) exempt from that refusal, for a literal IP host:
   * the app's own demo feed, without opening loopback to connectors in general.
   */
  allowedUrls: string[];
  /** Whole-request timeout (connect, send, receive), per attempt. */
  timeoutMs: number;
  maxResponseBytes: number;
  maxRowsPerRun: number;
  /** Hard cap on pages per run (all iterations together): a run that needs more fails. */
  maxPagesPerRun: number;
  maxRedirects: number;
  /** Retries after the first attempt on network errors, 429 and 5xx. */
  retries: number;
  retryBaseDelayMs: number;
  /** Longest wait we accept from a Retry-After header or backoff. */
  maxRetryDelayMs: number;
  /** Most request sequences one run may expand into through iterations. */
  maxIterations: number;
}

export const DEFAULT_ENGINE_LIMITS: EngineLimits = {
  allowPrivateNetworks: false,
  allowedHosts: [],
  allowedUrls: [],
  timeoutMs: 30_000,
  maxResponseBytes: 50 * 1024 * 1024,
  maxRowsPerRun: 1_000_000,
  maxPagesPerRun: 1_000,
  maxRedirects: 5,
  retries: 3,
  retryBaseDelayMs: 500,
  maxRetryDelayMs: 60_000,
  maxIterations: 100,
};

export const ENGINE_LIMITS = Symbol('ENGINE_LIMITS');
