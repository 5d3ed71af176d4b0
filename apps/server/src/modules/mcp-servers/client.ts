import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpTool, McpTransport } from "@parley/contract";
import type { AppContext } from "../../context.ts";
import { BlockedAddressError, CrossOriginRedirectError } from "../../lib/safe-network.ts";
import { openHeaders } from "../../lib/secret-headers.ts";
import type { McpServerRow } from "./schema.ts";

/** Where and how to reach one MCP server, headers in the clear. */
export interface McpTarget {
  url: string;
  headers: Record<string, string>;
  /** Seconds each operation (connect, list, call) may take. */
  timeout: number;
  transport: McpTransport;
}

export interface McpToolResult {
  /** The tool's content as text for the model. */
  text: string;
  isError: boolean;
}

/** An open connection to one MCP server; close it when done. */
export interface McpSession {
  listTools(): Promise<McpTool[]>;
  callTool(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<McpToolResult>;
  close(): Promise<void>;
}

export class McpConnectionError extends Error {
  constructor(url: string, reason: string) {
    super(`Could not connect to the MCP server at ${url}: ${reason}.`);
    this.name = "McpConnectionError";
  }
}

/** Why a server that redirects elsewhere is not followed: its headers (tokens, mostly) stay with its host. */
const redirectReason = (from: string, to: string) =>
  `it redirected to another host (${to}); saved headers are only sent to ${from}`;

/** Refusals (a blocked address, a redirect to another host) would fail the same way on the other transport. */
const refused = (reason: string) =>
  reason.includes("Refusing to connect") || reason.includes("redirected to another host");

/**
 * The origin a redirect points at when the SDK will not follow it there: another scheme, host or
 * port, except the https form of the same host on default ports, which the SDK follows.
 */
function unfollowedOrigin(from: string, location: string): string | undefined {
  let a: URL;
  let b: URL;
  try {
    a = new URL(from);
    b = new URL(location, a);
  } catch {
    return undefined;
  }
  const upgrade = a.hostname === b.hostname && a.protocol === "http:" && b.protocol === "https:" && !a.port && !b.port;
  return a.origin === b.origin || upgrade ? undefined : b.origin;
}

/** The other origin named by the SDK's "Redirect to <url> not followed", if a message has one. */
function redirectNotFollowed(url: string, messages: readonly string[]): string | undefined {
  for (const message of messages) {
    const location = /Redirect to (https?:\/\/\S+) not followed/.exec(message)?.[1];
    const to = location ? unfollowedOrigin(url, location) : undefined;
    if (to) return to;
  }
  return undefined;
}

/**
 * The most telling message in an error chain: the SSRF refusal or the refused redirect if any, else
 * the innermost useful text. With the server's `url`, the SDK's "Redirect to … not followed" to
 * another host is said in the same words as the safe network's refusal.
 */
export function reasonOf(error: unknown, url?: string): string {
  const messages: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 6; depth += 1) {
    if (e instanceof BlockedAddressError) return e.message.replace(/\.$/, "");
    if (e instanceof CrossOriginRedirectError) return redirectReason(e.from, e.to);
    if (e instanceof Error) {
      if (e.message && e.message !== "fetch failed") messages.push(e.message);
      e = e.cause;
    } else {
      messages.push(String(e));
      break;
    }
  }
  const redirect = url && redirectNotFollowed(url, messages);
  if (url && redirect) return redirectReason(new URL(url).origin, redirect);
  const blocked = messages.find(
    (m) => m.includes("Refusing to connect to") || m.includes("Refusing to follow a redirect"),
  );
  return (blocked ?? messages.at(-1) ?? "unknown error").replace(/\.$/, "");
}

export function serverTarget(ctx: Pick<AppContext, "secrets">, row: McpServerRow): McpTarget {
  return {
    url: row.url,
    headers: openHeaders(ctx.secrets, row.headers),
    timeout: row.timeout,
    transport: row.transport,
  };
}

function warnRedirect(ctx: AppContext, from: string, to: string, headers?: readonly string[]): void {
  // Header names at most, never their values.
  ctx.calls.log.warn(
    { from, to, ...(headers ? { headers } : {}) },
    "MCP server redirected to another host; not followed",
  );
}

/**
 * The safe network's fetch, with a warning for the operator when a server redirects to another
 * host: the SDK does not follow such a redirect (it asks for `redirect: "manual"`), and the safe
 * network refuses one that would carry the server's headers.
 */
function loggedFetch(ctx: AppContext): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    try {
      const response = await ctx.network.fetch(input, init);
      const location = response.status >= 300 && response.status < 400 ? response.headers.get("location") : null;
      const to = location ? unfollowedOrigin(url, location) : undefined;
      if (to) warnRedirect(ctx, new URL(url).origin, to);
      return response;
    } catch (error) {
      if (error instanceof CrossOriginRedirectError) warnRedirect(ctx, error.from, error.to, error.headers);
      throw error;
    }
  };
}

function transportFor(ctx: AppContext, target: McpTarget, kind: "streamable-http" | "sse"): Transport {
  const url = new URL(target.url);
  const options = { fetch: loggedFetch(ctx), requestInit: { headers: target.headers } };
  return kind === "sse" ? new SSEClientTransport(url, options) : new StreamableHTTPClientTransport(url, options);
}

/** Rejects when `ms` pass first; the SDK's own timeouts do not cover every step (opening an SSE stream). */
async function within<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms / 1000} seconds`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function connectWith(ctx: AppContext, target: McpTarget, kind: "streamable-http" | "sse"): Promise<Client> {
  const client = new Client({ name: "parley", version: "1.0.0" });
  const ms = target.timeout * 1000;
  try {
    await within(ms, client.connect(transportFor(ctx, target, kind), { timeout: ms }), "Connecting");
    return client;
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
}

async function connectClient(ctx: AppContext, target: McpTarget): Promise<Client> {
  try {
    if (target.transport === "sse") return await connectWith(ctx, target, "sse");
    try {
      return await connectWith(ctx, target, "streamable-http");
    } catch (error) {
      // Servers of the 2024-11-05 protocol speak only SSE; a refusal would fail the same way.
      if (target.transport !== "auto" || refused(reasonOf(error, target.url))) throw error;
      return await connectWith(ctx, target, "sse").catch(() => Promise.reject(error));
    }
  } catch (error) {
    throw new McpConnectionError(target.url, reasonOf(error, target.url));
  }
}

function toolText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .map((part: { type?: string; text?: string; resource?: { uri?: string; text?: string }; mimeType?: string }) => {
      if (part.type === "text") return part.text ?? "";
      if (part.type === "resource") return part.resource?.text ?? `[resource ${part.resource?.uri ?? ""}]`;
      if (part.type === "resource_link") return `[resource ${(part as { uri?: string }).uri ?? ""}]`;
      return `[${part.type ?? "content"}${part.mimeType ? ` ${part.mimeType}` : ""}]`;
    })
    .join("\n");
}

/** Connects (Streamable HTTP first, SSE as fallback for "auto") through the SSRF-safe network. */
export async function openMcpSession(ctx: AppContext, target: McpTarget): Promise<McpSession> {
  const client = await connectClient(ctx, target);
  const ms = target.timeout * 1000;
  return {
    async listTools() {
      const tools: McpTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await within(
          ms,
          client.listTools(cursor ? { cursor } : undefined, { timeout: ms }),
          "Listing tools",
        );
        for (const tool of page.tools) {
          tools.push({ name: tool.name, description: tool.description ?? "", input_schema: tool.inputSchema });
        }
        cursor = page.nextCursor;
      } while (cursor && tools.length < 1000);
      return tools;
    },
    async callTool(name, args, options = {}) {
      const request = client.callTool({ name, arguments: args }, undefined, {
        timeout: ms,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const result = await within(ms, request, `The tool ${name}`);
      const text = "content" in result ? toolText(result.content) : JSON.stringify(result.toolResult ?? null);
      return { text, isError: result.isError === true };
    },
    close: () => client.close(),
  };
}

async function withSession<T>(ctx: AppContext, target: McpTarget, work: (s: McpSession) => Promise<T>): Promise<T> {
  const session = await openMcpSession(ctx, target);
  try {
    return await work(session);
  } finally {
    await session.close().catch(() => undefined);
  }
}

/** The tools a target offers; connection failures throw McpConnectionError. */
export async function listToolsAt(ctx: AppContext, target: McpTarget): Promise<McpTool[]> {
  return withSession(ctx, target, async (s) => {
    try {
      return await s.listTools();
    } catch (error) {
      throw new McpConnectionError(target.url, reasonOf(error, target.url));
    }
  });
}

/** The tools a stored server offers. */
export function listMcpTools(ctx: AppContext, server: McpServerRow): Promise<McpTool[]> {
  return listToolsAt(ctx, serverTarget(ctx, server));
}

/** Calls one tool of a stored server on a fresh connection (for many calls, keep an openMcpSession). */
export function callMcpTool(
  ctx: AppContext,
  server: McpServerRow,
  name: string,
  args: Record<string, unknown>,
  options: { signal?: AbortSignal } = {},
): Promise<McpToolResult> {
  return withSession(ctx, serverTarget(ctx, server), (s) => s.callTool(name, args, options));
}
