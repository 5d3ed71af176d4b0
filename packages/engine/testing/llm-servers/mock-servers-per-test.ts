import { closeAfterEach } from "../close-after-each.ts";
import { type MockHandler, type MockServer, startMockServer } from "./mock-server.ts";

/** The function a test starts mock servers with (in place of `startMockServer`): each is closed after the test. */
export function mockServersPerTest(): (routes: Record<string, MockHandler>) => Promise<MockServer> {
  const closing = closeAfterEach();
  return async (routes) => closing(await startMockServer(routes));
}
