import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";

export interface SeenRequest {
  url: string;
  headers: IncomingHttpHeaders;
}

export interface RecordingHost {
  /** The host's origin, http://127.0.0.1:port, once it listens. */
  url: string;
  /** What it received since the current test began, oldest first. */
  seen: SeenRequest[];
}

/** A server answering every request with the JSON `body` and keeping each request's URL and headers. */
function recordingServer(body: unknown, host: RecordingHost): Server {
  return createServer((req, res) => {
    host.seen.push({ url: req.url ?? "", headers: req.headers });
    req.resume();
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(body));
  });
}

/**
 * For one test file about where secrets may go: two hosts on 127.0.0.1 that answer every request
 * with the JSON `body` and keep what they received. `saved` stands for the host a secret was saved
 * with, `other` for a host a user points a URL at afterwards. They listen before the file's tests,
 * forget what they saw before each test, and close after the file.
 */
export function useSavedAndOtherHost(body: unknown): { saved: RecordingHost; other: RecordingHost } {
  const saved: RecordingHost = { url: "", seen: [] };
  const other: RecordingHost = { url: "", seen: [] };
  const servers = [recordingServer(body, saved), recordingServer(body, other)];
  beforeAll(async () => {
    await Promise.all(
      servers.map(async (server, index) => {
        await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
        const host = index === 0 ? saved : other;
        host.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      }),
    );
  });
  beforeEach(() => {
    saved.seen.length = 0;
    other.seen.length = 0;
  });
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  return { saved, other };
}
