import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { freePort } from "./server.ts";

export interface EverythingServer {
  /** The server's Streamable HTTP endpoint. */
  url: string;
  stop(): void;
}

/**
 * The reference MCP server (@modelcontextprotocol/server-everything, installed for the API server's
 * tests), run locally over Streamable HTTP; resolves once it says it is listening.
 */
export async function startEverythingServer(): Promise<EverythingServer> {
  const require = createRequire(path.resolve(import.meta.dirname, "../../apps/server/package.json"));
  const dir = path.dirname(require.resolve("@modelcontextprotocol/server-everything/package.json"));
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(dir, "dist/index.js"), "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server-everything did not start")), 20_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      if (/listening on port|running on port/i.test(chunk.toString())) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`server-everything exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => child.kill() };
}
