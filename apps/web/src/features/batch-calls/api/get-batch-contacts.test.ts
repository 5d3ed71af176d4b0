import { beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../../lib/api-error.ts";

const request = vi.fn();
vi.mock("../../../lib/http-client.ts", () => ({
  ApiError,
  api: { request: (...args: unknown[]) => request(...args) },
}));

const { fetchBatchContacts } = await import("./get-batch-contacts.ts");

beforeEach(() => {
  request.mockReset();
});

describe("GET /batch-calls/{id}/contacts", () => {
  it("asks for one page of one state and reads the page", async () => {
    const contact = {
      number: "+14155550142",
      variables: { first_name: "Ada" },
      timezone: null,
      status: "answered",
      attempts: 1,
      last_outcome: "answered",
      call_id: "7f0c6c1e-3d1e-4c55-9f39-2a4f3b1f0a03",
      next_attempt_at: null,
      updated_at: "2026-11-23T10:00:00Z",
    };
    request.mockResolvedValue({ data: [contact], total_count: 26, page: 2, items_per_page: 25, pages: 2 });
    const page = await fetchBatchContacts("b1", { page: 2, status: "answered" });
    expect(request).toHaveBeenCalledWith("/batch-calls/b1/contacts", { query: { page: 2, status: "answered" } });
    expect(page).toMatchObject({ total_count: 26, data: [{ number: "+14155550142" }] });
  });

  it("refuses an answer that is not a page of contacts", async () => {
    request.mockResolvedValue({ phone_numbers: [] });
    await expect(fetchBatchContacts("b1", { page: 1, status: undefined })).rejects.toThrow();
  });
});
