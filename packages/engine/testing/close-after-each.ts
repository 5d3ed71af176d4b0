import { afterEach } from "vitest";

/**
 * Registers an afterEach that closes what each test started (servers, doubles, stand-in apps), the last
 * started first; returns the function a test passes each of them through.
 */
export function closeAfterEach(): <T extends { close(): Promise<void> }>(started: T) => T {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const started of open.splice(0).reverse()) await started.close();
  });
  return (started) => {
    open.push(started);
    return started;
  };
}
