/**
 * SIP messages (RFC 3261 §7): parse and serialize requests and responses. Headers keep their order;
 * names are matched case-insensitively and compact forms ("v", "f", "t", …) are read as their long
 * names, so a header is looked up one way whatever the peer sent.
 */

const COMPACT: Record<string, string> = {
  v: "via",
  f: "from",
  t: "to",
  i: "call-id",
  m: "contact",
  l: "content-length",
  c: "content-type",
  k: "supported",
  e: "content-encoding",
  s: "subject",
  r: "refer-to",
  o: "event",
  b: "referred-by",
  u: "allow-events",
};

/** Headers whose comma-separated values are separate entries (§7.3.1); others keep commas (dates, digests). */
const LIST_HEADERS = new Set(["via", "contact", "route", "record-route", "allow", "supported", "require"]);

const canonical = (name: string) => {
  const lower = name.trim().toLowerCase();
  return COMPACT[lower] ?? lower;
};

/** Ordered SIP headers with case-insensitive, compact-form-aware lookup. */
export class SipHeaders {
  private readonly entries: { name: string; value: string }[] = [];

  constructor(init: Iterable<readonly [string, string]> = []) {
    for (const [name, value] of init) this.append(name, value);
  }

  get(name: string): string | undefined {
    const key = canonical(name);
    return this.entries.find((e) => canonical(e.name) === key)?.value;
  }

  getAll(name: string): string[] {
    const key = canonical(name);
    return this.entries.filter((e) => canonical(e.name) === key).map((e) => e.value);
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  append(name: string, value: string): this {
    this.entries.push({ name, value });
    return this;
  }

  /** Replaces every value of the header with one. */
  set(name: string, value: string): this {
    this.delete(name);
    return this.append(name, value);
  }

  delete(name: string): this {
    const key = canonical(name);
    for (let i = this.entries.length - 1; i >= 0; i -= 1) {
      const entry = this.entries[i];
      if (entry && canonical(entry.name) === key) this.entries.splice(i, 1);
    }
    return this;
  }

  [Symbol.iterator](): Iterator<readonly [string, string]> {
    return this.entries.map((e) => [e.name, e.value] as const)[Symbol.iterator]();
  }

  clone(): SipHeaders {
    return new SipHeaders(this);
  }
}

export interface SipRequest {
  kind: "request";
  method: string;
  uri: string;
  headers: SipHeaders;
  body: Buffer;
}

export interface SipResponse {
  kind: "response";
  status: number;
  reason: string;
  headers: SipHeaders;
  body: Buffer;
}

export type SipMessage = SipRequest | SipResponse;

export class SipParseError extends Error {}

/** Splits a header value on commas outside quotes and angle brackets. */
export function splitList(value: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < value.length; i += 1) {
    const ch = value[i];
    if (ch === '"' && value[i - 1] !== "\\") quoted = !quoted;
    else if (!quoted && ch === "<") depth += 1;
    else if (!quoted && ch === ">") depth = Math.max(0, depth - 1);
    else if (!quoted && depth === 0 && ch === ",") {
      parts.push(value.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(value.slice(start).trim());
  return parts.filter((p) => p.length > 0);
}

const HEAD_END = Buffer.from("\r\n\r\n");

/** Where the header block of a buffered stream ends (index after CRLFCRLF), or -1. */
export function headerEnd(data: Buffer): number {
  const at = data.indexOf(HEAD_END);
  return at < 0 ? -1 : at + HEAD_END.length;
}

/** Reads the Content-Length of a header block (0 when absent). */
export function contentLengthOf(head: string): number {
  const match = /^(?:content-length|l)[ \t]*:[ \t]*(\d+)/im.exec(head);
  return match?.[1] ? Number(match[1]) : 0;
}

function parseHeaderLines(lines: string[]): SipHeaders {
  const headers = new SipHeaders();
  // Line folding (§7.3.1): a line starting with whitespace continues the previous header.
  const unfolded: string[] = [];
  for (const line of lines) {
    if (/^[ \t]/.test(line) && unfolded.length > 0) unfolded[unfolded.length - 1] += ` ${line.trim()}`;
    else if (line.length > 0) unfolded.push(line);
  }
  for (const line of unfolded) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new SipParseError(`Malformed header line: ${line.slice(0, 80)}`);
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (LIST_HEADERS.has(canonical(name))) for (const part of splitList(value)) headers.append(name, part);
    else headers.append(name, value);
  }
  return headers;
}

/** Parses one whole SIP message (a UDP datagram, or one framed out of a TCP stream). */
export function parseMessage(data: Buffer): SipMessage {
  let end = headerEnd(data);
  // A datagram without a blank line is still a message with no body.
  if (end < 0) end = data.length;
  const head = data.subarray(0, end).toString("utf8");
  const lines = head.split(/\r?\n/);
  const start = lines.shift()?.trim() ?? "";
  const headers = parseHeaderLines(lines);
  const declared = headers.get("content-length");
  const length = declared === undefined ? data.length - end : Number(declared);
  if (!Number.isInteger(length) || length < 0 || end + length > data.length) {
    throw new SipParseError("Content-Length does not match the body");
  }
  const body = Buffer.from(data.subarray(end, end + length));
  const status = /^SIP\/2\.0[ \t]+(\d{3})[ \t]*(.*)$/i.exec(start);
  if (status?.[1]) return { kind: "response", status: Number(status[1]), reason: status[2] ?? "", headers, body };
  const request = /^([A-Za-z]+)[ \t]+(\S+)[ \t]+SIP\/2\.0$/i.exec(start);
  if (!request?.[1] || !request[2]) throw new SipParseError(`Not a SIP start line: ${start.slice(0, 80)}`);
  return { kind: "request", method: request[1].toUpperCase(), uri: request[2], headers, body };
}

/** Serializes a message, setting Content-Length from the body. */
export function serializeMessage(message: SipMessage): Buffer {
  const start =
    message.kind === "request"
      ? `${message.method} ${message.uri} SIP/2.0`
      : `SIP/2.0 ${message.status} ${message.reason}`;
  const lines = [start];
  for (const [name, value] of message.headers)
    if (canonical(name) !== "content-length") lines.push(`${name}: ${value}`);
  lines.push(`Content-Length: ${message.body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "utf8"), message.body]);
}

export const REASONS: Record<number, string> = {
  100: "Trying",
  180: "Ringing",
  183: "Session Progress",
  200: "OK",
  202: "Accepted",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  407: "Proxy Authentication Required",
  408: "Request Timeout",
  415: "Unsupported Media Type",
  480: "Temporarily Unavailable",
  481: "Call/Transaction Does Not Exist",
  482: "Loop Detected",
  486: "Busy Here",
  487: "Request Terminated",
  488: "Not Acceptable Here",
  500: "Server Internal Error",
  503: "Service Unavailable",
  603: "Decline",
};

/**
 * A response to a request (§8.2.6): Via, From, To, Call-ID and CSeq copied; the To tag added when
 * given and the request's To has none.
 */
export function createResponse(
  request: SipRequest,
  status: number,
  options: { reason?: string; toTag?: string; headers?: [string, string][]; body?: Buffer | string } = {},
): SipResponse {
  const headers = new SipHeaders();
  for (const via of request.headers.getAll("via")) headers.append("Via", via);
  headers.append("From", request.headers.get("from") ?? "");
  let to = request.headers.get("to") ?? "";
  if (options.toTag && !/;\s*tag=/i.test(to)) to = `${to};tag=${options.toTag}`;
  headers.append("To", to);
  headers.append("Call-ID", request.headers.get("call-id") ?? "");
  headers.append("CSeq", request.headers.get("cseq") ?? "");
  for (const [name, value] of options.headers ?? []) headers.append(name, value);
  const body = typeof options.body === "string" ? Buffer.from(options.body, "utf8") : (options.body ?? Buffer.alloc(0));
  return { kind: "response", status, reason: options.reason ?? REASONS[status] ?? "Unknown", headers, body };
}

/** The CSeq's number and method. */
export function cseqOf(message: SipMessage): { seq: number; method: string } {
  const match = /^(\d+)\s+([A-Za-z]+)/.exec(message.headers.get("cseq") ?? "");
  return { seq: Number(match?.[1] ?? 0), method: (match?.[2] ?? "").toUpperCase() };
}
