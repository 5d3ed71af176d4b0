import { beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../../lib/api-error.ts";

const request = vi.fn();
vi.mock("../../../lib/http-client.ts", () => ({
  ApiError,
  api: { request: (...args: unknown[]) => request(...args) },
}));

const { fetchTestSuites, retryUnlessMissing, SUITES_PAGE_SIZE } = await import("./test-suites-api.ts");
const { runIsLive } = await import("./test-runs-api.ts");

beforeEach(() => {
  request.mockReset();
});

const suite = {
  id: "s1",
  name: "Bookings",
  description: "",
  agent_id: "7f0c6c1e-3d1e-4c55-9f39-2a4f3b1f0a03",
  agent_name: "Front desk",
  repeat: 1,
  judge_model: null,
  case_count: 2,
  last_run: { id: "r1", status: "passed", finished_at: "2026-11-29T09:00:00Z" },
  created_at: "2026-11-29T08:00:00Z",
  updated_at: "2026-11-29T08:00:00Z",
};

describe("GET /test-suites", () => {
  it("asks for one assistant's page of suites and reads the page", async () => {
    request.mockResolvedValue({ data: [suite], total_count: 1, page: 1, items_per_page: 20, pages: 1 });
    const page = await fetchTestSuites(suite.agent_id, 1);
    expect(request).toHaveBeenCalledWith("/test-suites", {
      query: { agent_id: suite.agent_id, page: 1, items_per_page: SUITES_PAGE_SIZE },
    });
    expect(page.data[0]).toMatchObject({ name: "Bookings", last_run: { status: "passed" } });
  });

  it("leaves the assistant out for the workspace's Tests page", async () => {
    request.mockResolvedValue({ data: [], total_count: 0, page: 2, items_per_page: 20, pages: 1 });
    await fetchTestSuites(null, 2);
    expect(request).toHaveBeenCalledWith("/test-suites", {
      query: { agent_id: undefined, page: 2, items_per_page: SUITES_PAGE_SIZE },
    });
  });

  it("refuses an answer that is not a page of suites", async () => {
    request.mockResolvedValue({ items: [] });
    await expect(fetchTestSuites(null, 1)).rejects.toThrow();
  });
});

describe("polling and retries", () => {
  it("keep polling a run until it has finished", () => {
    expect(runIsLive("queued")).toBe(true);
    expect(runIsLive("running")).toBe(true);
    expect(["passed", "failed", "error", "cancelled"].some((s) => runIsLive(s as "passed"))).toBe(false);
  });

  it("do not ask again for a suite or run that is not found", () => {
    expect(retryUnlessMissing(0, new ApiError(404, "Service not found", "Test suite not found"))).toBe(false);
    expect(retryUnlessMissing(0, new ApiError(503, "Unavailable", ""))).toBe(true);
    expect(retryUnlessMissing(2, new ApiError(503, "Unavailable", ""))).toBe(false);
  });
});
