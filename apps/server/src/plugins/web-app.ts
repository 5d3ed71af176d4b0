import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";

/**
 * Serves the built web app from the API process: static assets, and index.html for every
 * non-API path so the client router can take over. API paths keep their JSON 404.
 * A page the build wrote its own HTML for (`auth/login.html`: index.html plus hints to fetch that
 * page's code at once) gets that file at its exact path instead; a page with an id in its path has
 * one HTML for all its paths, a `[name]` segment in the file standing for any one segment
 * (`workflows/[workflowId].html` for /workflows/<id>).
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<boolean> {
  const index = path.join(distDir, "index.html");
  if (!existsSync(index)) return false;
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    // The build writes <file>.br and <file>.gz beside each text asset: sent as they are to a client
    // that accepts them (brotli first), with Vary: Accept-Encoding; the plain file otherwise.
    preCompressed: true,
    setHeaders(reply, filePath) {
      // Vite fingerprints everything under assets/, so it may be cached for good; anything else
      // (index.html above all, which names the current fingerprints) is revalidated every time.
      const fingerprinted = filePath.includes(`${path.sep}assets${path.sep}`);
      reply.header("cache-control", fingerprinted ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });
  const pageFiles = readdirSync(distDir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".html") && file !== "index.html")
    .map((file) => file.split(path.sep).join("/"));
  const pageHtml = new Map<string, string>();
  const patternPages: { segments: string[]; file: string }[] = [];
  for (const file of pageFiles) {
    const url = `/${file.slice(0, -".html".length)}`;
    if (/\[\w+\]/.test(url)) patternPages.push({ segments: url.split("/"), file });
    else pageHtml.set(url, file);
  }
  /** The page HTML the build wrote for this path, if any: its own, else its pattern's. */
  const htmlFor = (url: string): string => {
    const exact = pageHtml.get(url);
    if (exact) return exact;
    const have = url.split("/");
    const page = patternPages.find(
      ({ segments }) =>
        segments.length === have.length &&
        segments.every((segment, i) => (/^\[\w+\]$/.test(segment) ? have[i] !== "" : segment === have[i])),
    );
    return page?.file ?? "index.html";
  };
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
    return reply.sendFile(htmlFor(url));
  });
  return true;
}
