/** A failure while talking to the upstream API, with the text recorded on the run. */
export class ConnectorFetchError extends Error {
  constructor(
    message: string,
    readonly options: { retryable?: boolean; status?: number; retryAfterMs?: number } = {},
  ) {
    super(message);
    this.name = 'ConnectorFetchError';
  }

  get retryable(): boolean {
    return this.options.retryable ?? false;
  }
}
