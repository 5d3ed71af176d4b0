import { ProviderError } from "../provider-error.ts";

/** The text of a WebSocket message, whether it arrived as a string, a Buffer or an ArrayBuffer. */
export function messageText(data: unknown): string {
  if (typeof data === "string") return data;
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString("utf8");
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("utf8");
  if (Array.isArray(data)) return Buffer.concat(data.filter((d): d is Buffer => Buffer.isBuffer(d))).toString("utf8");
  return String(data);
}

/** Parses a JSON message into a record, or null when it is not a JSON object. */
export function parseJsonObject(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The readable text of an error event from `ws` (an ErrorEvent or an Error) or a browser socket. */
function errorEventText(event: unknown): string {
  if (event instanceof Error) return event.message;
  if (event && typeof event === "object") {
    const record = event as { message?: unknown; error?: unknown };
    if (record.error instanceof Error) return record.error.message;
    if (typeof record.message === "string") return record.message;
  }
  return "connection failed";
}

/** The HTTP status of a refused WebSocket handshake, when the client reported one. */
export function handshakeStatus(event: unknown): number | null {
  if (event && typeof event === "object") {
    const record = event as { status?: unknown; statusCode?: unknown };
    if (typeof record.status === "number") return record.status;
    if (typeof record.statusCode === "number") return record.statusCode;
  }
  const match = /Unexpected server response: (\d{3})/.exec(errorEventText(event));
  return match ? Number(match[1]) : null;
}

/** Classifies a socket error: a refused handshake by its status, anything else as a retryable network fault. */
export function socketError(provider: string, event: unknown): ProviderError {
  const status = handshakeStatus(event);
  if (status !== null) return ProviderError.fromStatus(provider, status, "WebSocket handshake refused");
  return new ProviderError(provider, `network error: ${errorEventText(event)}`, true, undefined, { cause: event });
}
