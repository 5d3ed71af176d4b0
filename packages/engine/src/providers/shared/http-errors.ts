import { ProviderError } from "../provider-error.ts";

/** The innermost readable reason of a fetch failure ("connect ECONNREFUSED 127.0.0.1:9"). */
export function networkErrorText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (current.message && !parts.includes(current.message)) parts.push(current.message);
    current = (current as Error & { cause?: unknown }).cause;
  }
  return parts.length > 0 ? parts.join(": ") : String(error);
}

/** A failure to reach the vendor at all: always worth retrying or falling back. */
export function networkError(provider: string, error: unknown): ProviderError {
  return new ProviderError(provider, `network error: ${networkErrorText(error)}`, true, undefined, { cause: error });
}

/** Reads the vendor's error text from a failed response and classifies it by status. */
export async function statusError(provider: string, response: Response): Promise<ProviderError> {
  let body = "";
  try {
    body = await response.text();
  } catch {
    // The body is only there to enrich the message; the status alone still classifies it.
  }
  return ProviderError.fromStatus(provider, response.status, vendorMessage(body) ?? body);
}

/** Pulls the human sentence out of the common vendor error shapes, when there is one. */
function vendorMessage(body: string): string | null {
  try {
    const json = JSON.parse(body) as unknown;
    const root = Array.isArray(json) ? json[0] : json;
    if (!root || typeof root !== "object") return null;
    const record = root as Record<string, unknown>;
    const error = record.error;
    if (typeof error === "string") return error;
    if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") {
      return (error as { message: string }).message;
    }
    for (const key of ["message", "detail", "error_message", "err_msg", "title"]) {
      const value = record[key];
      if (typeof value === "string") return value;
      if (value && typeof value === "object" && typeof (value as { message?: unknown }).message === "string") {
        return (value as { message: string }).message;
      }
    }
    return null;
  } catch {
    return null;
  }
}
