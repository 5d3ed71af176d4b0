import { isRecord } from "./form.ts";

/** The innermost readable reason of a fetch failure ("connect ECONNREFUSED 127.0.0.1:9"). */
export function networkReason(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (current.message && !parts.includes(current.message)) parts.push(current.message);
    current = current.cause;
  }
  return parts.length > 0 ? parts.join(": ") : String(error);
}

const MESSAGE_KEYS = ["message", "detail", "error_message", "error", "title", "error_title"];

function messageOf(value: unknown, depth = 0): string | null {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return depth < 3 ? messageOf(value[0], depth + 1) : null;
  if (!isRecord(value) || depth >= 3) return null;
  for (const key of MESSAGE_KEYS) {
    const found = messageOf(value[key], depth + 1);
    if (found) return found;
  }
  // `{"errors":[{"title":…,"detail":…}]}`
  return messageOf(value.errors, depth + 1);
}

/** The human sentence of a vendor's error body (JSON of the common shapes, else the text), shortened. */
export function vendorMessage(body: string): string {
  let found: string | null = null;
  try {
    found = messageOf(JSON.parse(body));
  } catch {
    found = null;
  }
  return (found ?? body).slice(0, 300);
}
