import { isIP } from "node:net";
import { hostname } from "node:os";
import { NODE_ID_PATTERN } from "@parley/contract";
import { z } from "zod";
import { parseAllowedEntry } from "./lib/address-policy.ts";
import { type AdmissionSettings, admissionVariables, pickAdmission } from "./lib/admission-settings.ts";
import { type ProviderKeys, pickProviderKeys, providerKeyVariables } from "./lib/provider-env-keys.ts";

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

/** A comma-separated list (empty by default); each entry that `valid` refuses is named in the error. */
const commaList = (valid: (entry: string) => boolean, problem: string) =>
  z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((e) => e.trim())
        .filter(Boolean),
    )
    .superRefine((entries, check) => {
      for (const entry of entries) {
        if (!valid(entry)) check.addIssue({ code: "custom", message: `"${entry}" ${problem}` });
      }
    });

/**
 * Every setting the server reads from the environment. Parsed once at start; a bad value
 * stops the server with a message naming the variable.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default("0.0.0.0"),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://parley.example.com" })
    .transform((v) => v.replace(/\/+$/, ""))
    .optional(),
  DATA_DIR: z.string().trim().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .trim()
    .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  PARLEY_SECRET_KEY: z
    .string()
    .trim()
    .min(32, "must be at least 32 characters (for example: openssl rand -base64 48)")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  SMTP_URL: z
    .string()
    .trim()
    .regex(/^smtps?:\/\//, "must start with smtp:// or smtps://")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  SMTP_FROM: z.string().trim().default("Parley <no-reply@parley.local>"),
  PARLEY_ADMIN_EMAIL: z
    .email("must be an email address")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  PARLEY_ADMIN_PASSWORD: z
    .string()
    .min(8, "must be at least 8 characters")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86400).default(900),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
      error: "must be one of fatal, error, warn, info, debug, trace, silent",
    })
    .default("info"),
  /** json: one JSON object a line, for log collectors; pretty: one readable line an entry, for a terminal. */
  LOG_FORMAT: z.enum(["json", "pretty"], { error: "must be json or pretty" }).default("json"),
  /**
   * Which requests get a log line (lib/request-log.ts): failures (4xx at info, successes at debug),
   * all (every request at info) or errors (5xx only). A 5xx is always logged at error.
   */
  LOG_REQUESTS: z.enum(["failures", "all", "errors"], { error: "must be failures, all or errors" }).default("failures"),
  /** Where the built web app lives; served by the API process in production. */
  WEB_DIST_DIR: optionalText,
  /** Rate limits (per window) for sign-in attempts and emailed links. */
  LOGIN_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  LOGIN_RATE_LIMIT_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  EMAIL_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(20),
  EMAIL_RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().min(1).default(5),
  /**
   * Which proxies' X-Forwarded-For to believe: a hop count ("1": the one proxy in front of us;
   * "true" means the same) or the proxies' addresses and CIDR ranges. Never "trust everything",
   * which would let a client name its own address and escape the per-address rate limits.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default("false")
    .transform((v, check): TrustProxy => {
      if (v === "" || v === "false" || v === "0") return false;
      if (v === "true") return 1;
      if (/^\d+$/.test(v)) return Number(v);
      const entries = v
        .split(",")
        .map((e) => e.trim())
        .filter(Boolean);
      const bad = entries.filter((e) => !isProxyAddress(e));
      if (bad.length > 0) {
        check.addIssue({
          code: "custom",
          message: `"${bad.join('", "')}" is not a hop count, an IP address, a CIDR range or loopback/linklocal/uniquelocal`,
        });
        return z.NEVER;
      }
      return entries;
    }),
  /** When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z
    .string()
    .trim()
    .min(16, "must be at least 16 characters")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /** host:port of a separate listener for /metrics (e.g. 127.0.0.1:9464); the public port then has none. */
  METRICS_LISTEN: z
    .string()
    .trim()
    .regex(/^(\[[0-9a-fA-F:.]+\]|[^\s:/]+):\d{1,5}$/, "must be host:port, such as 127.0.0.1:9464")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  GOOGLE_ISSUER: optionalText,
  MICROSOFT_CLIENT_ID: optionalText,
  MICROSOFT_CLIENT_SECRET: optionalText,
  MICROSOFT_ISSUER: optionalText,
  MICROSOFT_TENANT: z.string().trim().default("common"),
  /** Host names, IPs or CIDR ranges that user-given URLs may reach although they are not public. */
  PARLEY_ALLOWED_PRIVATE_HOSTS: commaList(
    (entry) => parseAllowedEntry(entry) !== null,
    "is not a host name, IP address or CIDR range",
  ),
  /**
   * SIP (extensions register here; trunks send and receive INVITEs). SIP_HOST is the address phones
   * and carriers reach; unset, it is PUBLIC_URL's host name. SIP_PORT 0 picks a free port (tests);
   * "off" disables the SIP listener.
   */
  SIP_HOST: optionalText,
  SIP_PORT: z
    .string()
    .trim()
    .default("5060")
    .refine((v) => v === "off" || (/^\d{1,5}$/.test(v) && Number(v) <= 65535), "must be a port number or off"),
  /**
   * SIP proxies in front of this node (deploy/: Kamailio), as addresses or CIDR ranges. A request
   * from one of them is taken to come from the address its X-Parley-Source header names (the proxy
   * sets it and drops any copy the caller sent): trunks' allowed_ips and the REGISTER rate limits
   * then see the real caller, not the proxy.
   */
  SIP_TRUSTED_PROXIES: commaList((entry) => isIpOrRange(entry), "is not an IP address or CIDR range"),
  /** host[:port] phones are told to register to (the SIP proxy in front); default SIP_HOST and the SIP port. */
  SIP_REGISTRAR: optionalText,
  /** Where RTP media of SIP calls is sent and received: an inclusive UDP port range. */
  RTP_PORT_MIN: z.coerce.number().int().min(1024).max(65535).default(10000),
  RTP_PORT_MAX: z.coerce.number().int().min(1024).max(65535).default(10999),
  /** The Meta app's secret: checks X-Hub-Signature-256 of WhatsApp webhooks when a number has none of its own. */
  WHATSAPP_APP_SECRET: optionalText,
  /**
   * STUN/TURN servers for WebRTC (WhatsApp) calls, comma-separated ("stun:stun.example.com:3478").
   * None by default: a server with a public address needs none, and asking an outside STUN server
   * would be a request to a third party the operator did not choose (and a 5 s wait offline).
   */
  WEBRTC_ICE_SERVERS: commaList(
    (entry) => /^(stun|stuns|turn|turns):[^\s]+$/.test(entry),
    "is not a stun: or turn: URL",
  ),
  /** The WhatsApp Cloud API root (Graph API with its version). */
  WHATSAPP_GRAPH_API_URL: z
    .url({ protocol: /^https?$/ })
    .transform((v) => v.replace(/\/+$/, ""))
    .default("https://graph.facebook.com/v23.0"),
  /**
   * This process's name among the nodes serving one database. Set (deploy/ sets it), it is also
   * the routing key in the realtime and media-stream socket URLs the load balancer reads.
   */
  NODE_ID: z
    .string()
    .trim()
    .regex(NODE_ID_PATTERN, "must be 1–32 lowercase letters, digits or dashes, starting with a letter or digit")
    .optional()
    .or(z.literal("").transform(() => undefined)),
  /** How long a stopping process (SIGTERM) lets its running calls finish: 600, 600s, 10m or 500ms. */
  DRAIN_TIMEOUT: z
    .string()
    .trim()
    .default("10m")
    .transform((v, check) => {
      const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(v);
      if (!match) {
        check.addIssue({ code: "custom", message: "must be a duration such as 600, 600s, 10m or 500ms" });
        return z.NEVER;
      }
      const unit = match[2] ?? "s";
      return Math.round(Number(match[1]) * (unit === "ms" ? 1 : unit === "s" ? 1000 : 60_000));
    }),
  /** Payments (optional): tiers map to the payment provider's prices, workspaces get its customer portal. */
  STRIPE_SECRET_KEY: optionalText,
  /** The payment provider's REST root (a local double in tests). */
  STRIPE_API_URL: z
    .url({ protocol: /^https?$/ })
    .transform((v) => v.replace(/\/+$/, ""))
    .default("https://api.stripe.com"),
  ...providerKeyVariables,
  ...admissionVariables,
});

export type Env = z.infer<typeof envSchema>;

/** Fastify's trustProxy as we allow it: off, a hop count, or the trusted proxies' addresses. */
export type TrustProxy = false | number | string[];

/** An address or CIDR range proxy-addr understands, or one of its named ranges. */
function isProxyAddress(entry: string): boolean {
  return ["loopback", "linklocal", "uniquelocal"].includes(entry) || isIpOrRange(entry);
}

/** An IP address, or a CIDR range of one. */
function isIpOrRange(entry: string): boolean {
  const [address = "", bits, extra] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

export interface OidcClientConfig {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
}

export interface Config {
  env: Env["NODE_ENV"];
  port: number;
  host: string;
  /** Base URL users reach the web app at; links in emails and SSO redirects use it. */
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  secretKey: string | undefined;
  smtpUrl: string | undefined;
  smtpFrom: string;
  admin: { email: string; password: string } | undefined;
  accessTokenTtlSeconds: number;
  logLevel: Env["LOG_LEVEL"];
  logFormat: Env["LOG_FORMAT"];
  logRequests: Env["LOG_REQUESTS"];
  webDistDir: string | undefined;
  trustProxy: TrustProxy;
  /** Bearer token /metrics requires, if any. */
  metricsToken: string | undefined;
  /** Separate listen address for /metrics, if any. */
  metricsListen: { host: string; port: number } | undefined;
  rateLimits: { loginPerIp: number; loginPerAccount: number; emailPerIp: number; emailPerAddress: number };
  sso: { google: OidcClientConfig | undefined; microsoft: OidcClientConfig | undefined };
  /** PARLEY_ALLOWED_PRIVATE_HOSTS: exceptions to the SSRF policy of outbound requests. */
  allowedPrivateHosts: string[];
  /** Server-wide provider credentials (the variables the provider descriptors name), the fallback when a workspace has none. */
  providerKeys: ProviderKeys;
  /**
   * SIP listener; port null when SIP_PORT=off. trustedProxies: SIP_TRUSTED_PROXIES; registrar: what
   * phones are told to register to (null: SIP_HOST and the bound port).
   */
  sip: {
    host: string;
    port: number | null;
    rtpPortMin: number;
    rtpPortMax: number;
    trustedProxies: string[];
    registrar: string | null;
  };
  whatsapp: { appSecret: string | undefined; graphApiUrl: string; iceServers: Array<{ urls: string }> };
  /** Payments; secretKey undefined turns them off. */
  stripe: { secretKey: string | undefined; apiUrl: string };
  /**
   * This process among the nodes of one database: its id, whether the id routes sockets (NODE_ID
   * was set), and how long a SIGTERM waits for its calls.
   */
  node: { id: string; routed: boolean; drainTimeoutMs: number };
  /** When this process refuses new calls as busy (lib/admission.ts). */
  admission: AdmissionSettings;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

function oidc(env: Env, prefix: "GOOGLE" | "MICROSOFT", defaultIssuer: string, problems: string[]) {
  const id = env[`${prefix}_CLIENT_ID`];
  const secret = env[`${prefix}_CLIENT_SECRET`];
  const issuer = env[`${prefix}_ISSUER`] ?? defaultIssuer;
  if (!id) {
    if (secret) problems.push(`${prefix}_CLIENT_SECRET is set but ${prefix}_CLIENT_ID is missing`);
    return undefined;
  }
  if (!/^https?:\/\//.test(issuer)) problems.push(`${prefix}_ISSUER: must be an http(s) URL`);
  return { issuer, clientId: id, clientSecret: secret };
}

function hostAndPort(value: string): { host: string; port: number } {
  const at = value.lastIndexOf(":");
  return { host: value.slice(0, at).replace(/^\[|\]$/g, ""), port: Number(value.slice(at + 1)) };
}

/** Without NODE_ID: the host name and port, cut to a valid id ("vm-3000"). */
function defaultNodeId(port: number): string {
  const host = hostname()
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+/, "");
  return `${host.slice(0, 24) || "node"}-${port}`.slice(0, 32);
}

/** Parses the environment into a Config, or throws a ConfigError listing every bad variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const env = parsed.data;
  const problems: string[] = [];
  if (Boolean(env.PARLEY_ADMIN_EMAIL) !== Boolean(env.PARLEY_ADMIN_PASSWORD)) {
    problems.push("PARLEY_ADMIN_EMAIL and PARLEY_ADMIN_PASSWORD must be set together");
  }
  const google = oidc(env, "GOOGLE", "https://accounts.google.com", problems);
  const microsoft = oidc(env, "MICROSOFT", `https://login.microsoftonline.com/${env.MICROSOFT_TENANT}/v2.0`, problems);
  if (env.RTP_PORT_MIN > env.RTP_PORT_MAX) problems.push("RTP_PORT_MIN must not be above RTP_PORT_MAX");
  if (problems.length > 0) throw new ConfigError(problems);
  const port = env.PORT;
  const publicUrl = env.PUBLIC_URL ?? `http://localhost:${port}`;
  return {
    env: env.NODE_ENV,
    port,
    host: env.HOST,
    publicUrl,
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    secretKey: env.PARLEY_SECRET_KEY,
    smtpUrl: env.SMTP_URL,
    smtpFrom: env.SMTP_FROM,
    admin:
      env.PARLEY_ADMIN_EMAIL && env.PARLEY_ADMIN_PASSWORD
        ? { email: env.PARLEY_ADMIN_EMAIL, password: env.PARLEY_ADMIN_PASSWORD }
        : undefined,
    accessTokenTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    logRequests: env.LOG_REQUESTS,
    webDistDir: env.WEB_DIST_DIR,
    trustProxy: env.TRUST_PROXY,
    metricsToken: env.METRICS_TOKEN,
    metricsListen: env.METRICS_LISTEN ? hostAndPort(env.METRICS_LISTEN) : undefined,
    rateLimits: {
      loginPerIp: env.LOGIN_RATE_LIMIT_PER_IP,
      loginPerAccount: env.LOGIN_RATE_LIMIT_PER_ACCOUNT,
      emailPerIp: env.EMAIL_RATE_LIMIT_PER_IP,
      emailPerAddress: env.EMAIL_RATE_LIMIT_PER_ADDRESS,
    },
    sso: { google, microsoft },
    allowedPrivateHosts: env.PARLEY_ALLOWED_PRIVATE_HOSTS,
    providerKeys: pickProviderKeys(env),
    sip: {
      host: env.SIP_HOST ?? new URL(publicUrl).hostname,
      port: env.SIP_PORT === "off" ? null : Number(env.SIP_PORT),
      rtpPortMin: env.RTP_PORT_MIN,
      rtpPortMax: env.RTP_PORT_MAX,
      trustedProxies: env.SIP_TRUSTED_PROXIES,
      registrar: env.SIP_REGISTRAR ?? null,
    },
    whatsapp: {
      appSecret: env.WHATSAPP_APP_SECRET,
      graphApiUrl: env.WHATSAPP_GRAPH_API_URL,
      iceServers: env.WEBRTC_ICE_SERVERS.map((urls) => ({ urls })),
    },
    stripe: { secretKey: env.STRIPE_SECRET_KEY, apiUrl: env.STRIPE_API_URL },
    node: {
      id: env.NODE_ID ?? defaultNodeId(port),
      routed: env.NODE_ID !== undefined,
      drainTimeoutMs: env.DRAIN_TIMEOUT,
    },
    admission: pickAdmission(env, env.NODE_ENV),
  };
}
