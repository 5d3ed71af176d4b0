import { afterEach } from "vitest";
import { type MockHandler, type MockServer, startMockServer } from "./mock-server.ts";

/**
 * Registers an afterEach that closes every mock server the test started; returns the function a
 * test starts them with (in place of `startMockServer`).
 */
export function mockServersPerTest(): (routes: Record<string, MockHandler>) => Promise<MockServer> {
  const started: MockServer[] = [];
  afterEach(async () => {
    for (const server of started.splice(0)) await server.close();
  });
  return async (routes) => {
    const server = await startMockServer(routes);
    started.push(server);
    return server;
  };
}
