import { timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { collectDefaultMetrics, Histogram, type Registry } from "prom-client";
import { AppError } from "../lib/app-error.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** The /metrics registry (the context's), for what serves or reads the metrics. */
    metricsRegistry: Registry;
  }
}

export interface MetricsAccess {
  /** METRICS_TOKEN: the bearer token /metrics asks for. */
  token: string | undefined;
  /** METRICS_LISTEN is set: metrics are served by listenForMetrics, not on the public port. */
  separateListener: boolean;
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Who may read /metrics on the public port: with METRICS_TOKEN, whoever sends it as a bearer
 * token; without one, only a client on this machine that did not come through a proxy (a
 * reverse proxy in front would otherwise hand the figures to everyone).
 */
function checkAccess(request: FastifyRequest, token: string | undefined) {
  if (token) {
    const header = request.headers.authorization ?? "";
    const given = /^Bearer\s+(.+)$/i.exec(header)?.[1] ?? "";
    if (!sameSecret(given, token)) {
      throw new AppError("unauthorized", "A valid metrics token is required.", { "www-authenticate": "Bearer" });
    }
    return;
  }
  const direct = request.headers["x-forwarded-for"] === undefined && request.headers.forwarded === undefined;
  if (!direct || !LOOPBACK.test(request.socket.remoteAddress ?? "")) {
    throw new AppError("forbidden", "Metrics are only served to this machine unless METRICS_TOKEN is set.");
  }
}

/**
 * The HTTP histogram of a registry. The process defaults and the histogram are registered once per
 * registry: the registry is the context's, and a test may build two apps on one context.
 */
const httpDurations = new WeakMap<Registry, Histogram<"method" | "route" | "status">>();

function httpDurationOf(registry: Registry): Histogram<"method" | "route" | "status"> {
  const known = httpDurations.get(registry);
  if (known) return known;
  collectDefaultMetrics({ register: registry, prefix: "parley_" });
  const histogram = new Histogram({
    name: "parley_http_request_duration_seconds",
    help: "HTTP request duration by method, route and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  httpDurations.set(registry, histogram);
  return histogram;
}

/** Prometheus metrics: process defaults plus an HTTP latency histogram by route, at /metrics. */
export function registerMetrics(app: FastifyInstance, registry: Registry, access: MetricsAccess): Registry {
  app.decorate("metricsRegistry", registry);
  const httpDuration = httpDurationOf(registry);
  app.addHook("onResponse", async (request, reply) => {
    const route = request.routeOptions.url ?? "unmatched";
    httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
  if (access.separateListener) return registry;
  app.get("/metrics", { schema: { hide: true } }, async (request, reply) => {
    checkAccess(request, access.token);
    reply.header("content-type", registry.contentType);
    return registry.metrics();
  });
  return registry;
}

/** METRICS_LISTEN: a listener of its own that serves only /metrics, for a private interface. */
export async function listenForMetrics(registry: Registry, address: { host: string; port: number }): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.method !== "GET" || request.url?.split("?")[0] !== "/metrics") {
      response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ detail: "Not found." }));
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { "content-type": registry.contentType }).end(text),
      () =>
        response
          .writeHead(500, { "content-type": "application/json" })
          .end(JSON.stringify({ detail: "Internal server error." })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(address.port, address.host, resolve);
  });
  return server;
}
