import { redactSecrets } from "@parley/engine";
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from "fastify";
import pino from "pino";

/**
 * Which requests get an info line (LOG_REQUESTS): `failures` (the default) logs client errors (4xx)
 * at info and successes at debug; `all` logs every request at info; `errors` only server errors.
 * A server error (5xx, or a response that errored) is always one error line, whatever the setting.
 */
export type RequestLogging = "errors" | "failures" | "all";

// The detail a 4xx or 5xx answer told the client, kept until its request's log line is written.
const failureDetails = new WeakMap<FastifyRequest, string>();

/**
 * Notes what a failed answer says (routes that answer a vendor's failure as a 502 send it
 * themselves, so no error reaches the error handler): the request's log line then says why, not
 * only "502" or "401". Successful answers are not looked at.
 */
export function noteFailureDetail(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
  if (reply.statusCode < 400 || typeof payload !== "string" || !payload.startsWith("{")) return;
  try {
    const { detail } = JSON.parse(payload) as { detail?: unknown };
    if (typeof detail === "string") failureDetails.set(request, redactSecrets(detail).slice(0, 500));
  } catch {
    // Not a JSON body: the line keeps the status alone.
  }
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** A health probe's route: its 503 (draining, unready) is not logged as a failed request. */
    probe?: boolean;
  }
}

/**
 * One line a request, written when it completes, instead of Fastify's two ("incoming request" and
 * "request completed", both at info): at the default level a successful request writes nothing,
 * which was the largest per-request cost of the API (issue 35). A server error is one error line
 * with the request id, method, address (secret query values redacted), status, duration, workspace
 * and what the client was told; a client error (4xx) one info line with its status and reason — a
 * wrong password or a missing record is the request's fault, not the server's.
 */
export class RequestLogController extends LogController {
  readonly #successLevel: "info" | "debug";
  readonly #clientErrorLevel: "info" | "debug";

  constructor(logging: RequestLogging = "failures") {
    super();
    this.#successLevel = logging === "all" ? "info" : "debug";
    this.#clientErrorLevel = logging === "errors" ? "debug" : "info";
  }

  // The one line is written at completion: it has the status and the duration.
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const status = reply.statusCode;
    // A probe's 503 (a node draining) is an answer, not a failure.
    const probeAnswer = request.routeOptions.config.probe === true && status === 503;
    if (!error && (status < 500 || probeAnswer)) {
      const level = status >= 400 && !probeAnswer ? this.#clientErrorLevel : this.#successLevel;
      if (this.isLogDisabled(request)) return;
      // Below the logger's level this is pino's no-op: a success costs no serialising and no write.
      reply.log[level](
        {
          req: request,
          res: reply,
          ...(status >= 400 ? { detail: failureDetails.get(request) } : {}),
          responseTime: reply.elapsedTime,
        },
        "request completed",
      );
      return;
    }
    if (this.isLogDisabled(request)) return;
    reply.log.error(
      {
        req: request,
        res: reply,
        ...(error ? { err: error } : {}),
        workspaceId: request.tenant?.workspaceId,
        detail: failureDetails.get(request),
        responseTime: reply.elapsedTime,
      },
      "request failed",
    );
  }
}

type LevelName = "fatal" | "error" | "warn" | "info" | "debug" | "trace";

const LEVEL_VALUES: Record<string, number> = pino.levels.values;
/** Whether `logger` writes lines at `level` (its level is a name: "info", or "silent" for none). */
const enabled = (logger: FastifyBaseLogger, level: string): boolean =>
  (LEVEL_VALUES[level] ?? 0) >= (LEVEL_VALUES[logger.level] ?? Number.POSITIVE_INFINITY);
type LogArgs = Parameters<FastifyBaseLogger["info"]>;

/**
 * A request's logger that makes its pino child (the request id bound to every line) only when a
 * line is written at an enabled level. Making the child runs the redaction over its bindings and
 * builds a logger object — per request, for a logger most requests never write to.
 */
class LazyRequestLogger {
  #child: FastifyBaseLogger | undefined;
  constructor(
    readonly parent: FastifyBaseLogger,
    readonly bindings: Record<string, unknown>,
  ) {}

  get #log(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings);
    return this.#child;
  }
  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }
  set level(level: string) {
    this.#log.level = level;
  }
  #write(level: LevelName, args: LogArgs): void {
    if (this.#child) this.#child[level](...args);
    else if (enabled(this.parent, level)) this.#log[level](...args);
  }
  fatal(...args: LogArgs) {
    this.#write("fatal", args);
  }
  error(...args: LogArgs) {
    this.#write("error", args);
  }
  warn(...args: LogArgs) {
    this.#write("warn", args);
  }
  info(...args: LogArgs) {
    this.#write("info", args);
  }
  debug(...args: LogArgs) {
    this.#write("debug", args);
  }
  trace(...args: LogArgs) {
    this.#write("trace", args);
  }
  silent() {}
  isLevelEnabled(level: string): boolean {
    return enabled(this.#child ?? this.parent, level);
  }
  child(...args: Parameters<FastifyBaseLogger["child"]>): FastifyBaseLogger {
    return this.#log.child(...args);
  }
}

/**
 * Fastify's childLoggerFactory: a LazyRequestLogger for each request, unless the route sets its own
 * level (then the pino child at once, as Fastify would make it).
 */
export const lazyRequestLogger = (
  logger: FastifyBaseLogger,
  bindings: Record<string, unknown>,
  options: { level?: string },
): FastifyBaseLogger =>
  options.level
    ? logger.child(bindings, options)
    : (new LazyRequestLogger(logger, bindings) as unknown as FastifyBaseLogger);
