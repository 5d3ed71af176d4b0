/**
 * A provider failure. `retryable` says whether trying again (or the next provider) may help:
 * network errors, timeouts, 408, 429 and 5xx are; other 4xx (bad key, bad request) are not.
 */
export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(`${provider}: ${message}`, options);
    this.name = "ProviderError";
  }

  /** Classifies an HTTP status the way every adapter should. */
  static fromStatus(provider: string, status: number, body: string): ProviderError {
    const retryable = status === 408 || status === 429 || status >= 500;
    return new ProviderError(provider, `HTTP ${status}: ${body.slice(0, 300)}`, retryable, status);
  }
}

/**
 * A credential the provider needs is not set up. Never retryable; the server answers it as the
 * caller's to fix (a 4xx pointing to the Integrations page), not as an outage.
 */
export class MissingCredentialError extends ProviderError {
  constructor(
    prefix: string,
    /** The provider id whose credential is missing. */
    readonly vendor: string,
    /** The credential field (`api_key`, `endpoint`, …). */
    readonly field: string,
    /** The message without the prefix: "No API key for <vendor>. Add one on the Integrations page." */
    readonly detail: string,
  ) {
    super(prefix, detail, false);
    this.name = "MissingCredentialError";
  }
}
