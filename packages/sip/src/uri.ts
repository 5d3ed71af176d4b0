import { randomBytes } from "node:crypto";

/** A SIP or SIPS URI (RFC 3261 §19.1), with the parts Parley reads. */
export interface SipUri {
  scheme: "sip" | "sips" | "tel";
  user: string | null;
  host: string;
  port: number | null;
  /** URI parameters (";transport=tcp"), names lower-cased; a flag parameter has the value "". */
  params: Record<string, string>;
}

/** A From/To/Contact/Refer-To value: an optional display name, the URI, and header parameters (tag, expires). */
export interface NameAddr {
  display: string | null;
  uri: string;
  params: Record<string, string>;
}

function parseParams(text: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const part of text.split(";")) {
    const trimmed = part.trim();
    if (!trimmed) continue;
    const eq = trimmed.indexOf("=");
    if (eq < 0) params[trimmed.toLowerCase()] = "";
    else
      params[trimmed.slice(0, eq).trim().toLowerCase()] = trimmed
        .slice(eq + 1)
        .trim()
        .replace(/^"|"$/g, "");
  }
  return params;
}

/** Parses "sip:user@host:port;params"; null when it is not a SIP URI. */
export function parseUri(text: string): SipUri | null {
  const match = /^(sips?|tel):(?:([^@;?]+)@)?(\[[^\]]+\]|[^:;?]+)(?::(\d+))?([^?]*)/i.exec(text.trim());
  if (!match?.[1] || !match[3]) return null;
  const scheme = match[1].toLowerCase();
  if (scheme !== "sip" && scheme !== "sips" && scheme !== "tel") return null;
  // A password in the userinfo ("user:secret@") is never used; it is dropped.
  const user = match[2] ? decodeURIComponent(match[2].split(":")[0] ?? "") : null;
  return {
    scheme,
    user,
    host: match[3].toLowerCase(),
    port: match[4] ? Number(match[4]) : null,
    params: parseParams(match[5] ?? ""),
  };
}

export function formatUri(uri: { scheme?: string; user?: string | null; host: string; port?: number | null }): string {
  const user = uri.user ? `${encodeURIComponent(uri.user).replaceAll("%2B", "+")}@` : "";
  const host = uri.host.includes(":") && !uri.host.startsWith("[") ? `[${uri.host}]` : uri.host;
  return `${uri.scheme ?? "sip"}:${user}${host}${uri.port ? `:${uri.port}` : ""}`;
}

/** Parses a name-addr or addr-spec header value (§20.10). */
export function parseNameAddr(text: string): NameAddr {
  const value = text.trim();
  const open = value.indexOf("<");
  if (open >= 0) {
    const close = value.indexOf(">", open);
    const display = value.slice(0, open).trim().replace(/^"|"$/g, "") || null;
    return {
      display,
      uri: value.slice(open + 1, close < 0 ? undefined : close).trim(),
      params: parseParams(close < 0 ? "" : value.slice(close + 1)),
    };
  }
  // addr-spec: parameters after the URI belong to the header, not the URI (§20).
  const semi = value.indexOf(";");
  return {
    display: null,
    uri: semi < 0 ? value : value.slice(0, semi),
    params: parseParams(semi < 0 ? "" : value.slice(semi)),
  };
}

export function formatNameAddr(addr: NameAddr): string {
  const display = addr.display ? `"${addr.display.replaceAll('"', "")}" ` : "";
  const params = Object.entries(addr.params)
    .map(([k, v]) => (v === "" ? `;${k}` : `;${k}=${v}`))
    .join("");
  return `${display}<${addr.uri}>${params}`;
}

/** The tag parameter of a From or To value. */
export function tagOf(value: string | undefined): string | null {
  return value ? (parseNameAddr(value).params.tag ?? null) : null;
}

/** The branch of the top Via. */
export function branchOf(via: string | undefined): string | null {
  return via ? (/;\s*branch=([^;,\s]+)/i.exec(via)?.[1] ?? null) : null;
}

/** A random token for tags, Call-IDs and nonces. */
export const randomToken = (bytes = 8) => randomBytes(bytes).toString("hex");

/** A new branch with the RFC 3261 magic cookie. */
export const newBranch = () => `z9hG4bK${randomToken(10)}`;

/** Parses a Via header's sent-by and parameters. */
export function parseVia(via: string): {
  transport: string;
  host: string;
  port: number | null;
  params: Record<string, string>;
} | null {
  const match = /^SIP\/2\.0\/([A-Za-z]+)\s+(\[[^\]]+\]|[^:;\s]+)(?::(\d+))?\s*(.*)$/i.exec(via.trim());
  if (!match?.[1] || !match[2]) return null;
  return {
    transport: match[1].toUpperCase(),
    host: match[2],
    port: match[3] ? Number(match[3]) : null,
    params: parseParams(match[4] ?? ""),
  };
}
