import { describe, expect, it } from "vitest";
import { pathMatches } from "./page-pattern.ts";

describe("a page's path pattern", () => {
  it("matches its own path exactly", () => {
    expect(pathMatches("/assistants", "/assistants")).toBe(true);
    expect(pathMatches("/assistants", "/assistants/abc")).toBe(false);
    expect(pathMatches("/assistants", "/assistant")).toBe(false);
  });

  it("takes any one segment for a :name, never none or two", () => {
    expect(pathMatches("/workflows/:workflowId", "/workflows/8c4f0c1e")).toBe(true);
    expect(pathMatches("/workflows/:workflowId", "/workflows/")).toBe(false);
    expect(pathMatches("/workflows/:workflowId", "/workflows")).toBe(false);
    expect(pathMatches("/workflows/:workflowId", "/workflows/8c4f0c1e/versions")).toBe(false);
    expect(pathMatches("/workflows/:workflowId", "/assistants/8c4f0c1e")).toBe(false);
  });
});
