import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/**
 * Serves the built web app from the API process: static assets, and index.html for every
 * non-API path so the client router can take over. API paths keep their JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<boolean> {
  const index = path.join(distDir, "index.html");
  if (!existsSync(index)) return false;
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    setHeaders(reply, filePath) {
      // Vite fingerprints everything under assets/, so it may be cached for good.
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        reply.header("cache-control", "public, max-age=31536000, immutable");
      }
    },
  });
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split("?")[0] ?? "/";
    const isApi = url.startsWith("/api/") || url === "/metrics";
    if (request.method !== "GET" || isApi) {
      return reply.code(404).send({ detail: `Route ${request.method} ${url} not found` });
    }
    const candidate = path.normalize(path.join(distDir, url));
    if (candidate.startsWith(distDir) && path.extname(url) && existsSync(candidate)) {
      return reply.sendFile(path.relative(distDir, candidate));
    }
    reply.header("cache-control", "no-cache");
    return reply.sendFile("index.html");
  });
  return true;
}
