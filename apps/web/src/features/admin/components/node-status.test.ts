import { describe, expect, it } from "vitest";
import { nodeAddress, nodeStatus, timeAgo } from "./node-status.ts";

describe("a node's status in the admin list", () => {
  it("is its state while its heartbeat comes", () => {
    expect(nodeStatus({ state: "ready", alive: true })).toBe("ready");
    expect(nodeStatus({ state: "draining", alive: true })).toBe("draining");
  });

  it("is not responding once the heartbeat stops, unless it stopped cleanly", () => {
    expect(nodeStatus({ state: "ready", alive: false })).toBe("notResponding");
    expect(nodeStatus({ state: "draining", alive: false })).toBe("notResponding");
    expect(nodeStatus({ state: "stopped", alive: false })).toBe("stopped");
  });

  it("is addressed by host and HTTP port", () => {
    expect(nodeAddress({ host: "app-2", http_port: 8002 })).toBe("app-2:8002");
  });
});

describe("timeAgo", () => {
  const now = Date.parse("2026-11-29T05:00:00Z");
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

  it("says the largest whole unit, in the interface language", () => {
    expect(timeAgo(ago(5), now, "en")).toBe("5 seconds ago");
    expect(timeAgo(ago(125), now, "en")).toBe("2 minutes ago");
    expect(timeAgo(ago(3 * 3600 + 10), now, "en")).toBe("3 hours ago");
    expect(timeAgo(ago(2 * 86_400), now, "en")).toBe("2 days ago");
    expect(timeAgo(ago(125), now, "de")).toBe("vor 2 Minuten");
  });

  it("reads a heartbeat slightly ahead of this clock as now", () => {
    expect(timeAgo(ago(-2), now, "en")).toBe("now");
    expect(timeAgo(ago(0), now, "en")).toBe("now");
  });
});
