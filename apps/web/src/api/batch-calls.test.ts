import { beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "../lib/api-error.ts";

const request = vi.fn();
vi.mock("../lib/http-client.ts", () => ({ ApiError, api: { request: (...args: unknown[]) => request(...args) } }));

const api = await import("./batch-calls.ts");

const progress = {
  total: 2,
  dialled: 0,
  answered: 0,
  failed: 0,
  in_progress: 0,
  pending: 2,
  do_not_call: 0,
  cancelled: 0,
};
const summary = {
  id: "5f0c6c1e-3d1e-4c55-9f39-2a4f3b1f0a01",
  name: "Renewals",
  agent_id: null,
  from_phone_number_id: "6f0c6c1e-3d1e-4c55-9f39-2a4f3b1f0a02",
  scheduled_time: null,
  timezone: "UTC",
  calling_window: null,
  retry_policy: { max_attempts: 1, delay_seconds: 300, retry_on: ["no-answer", "busy"] },
  concurrency: 5,
  spend_cap: null,
  spent: 0,
  default_country: null,
  status: "created",
  pause_reason: null,
  is_archived: false,
  progress,
  started_at: null,
  finished_at: null,
  createdAt: "2026-11-23T10:00:00Z",
  updatedAt: "2026-11-23T10:00:00Z",
};
const batch = { ...summary, phone_numbers: [] };

beforeEach(() => {
  request.mockReset();
});

describe("batch calls API (spec §7)", () => {
  it("lists one list at a time, archived or not, with the filters the page chose", async () => {
    request.mockResolvedValue({ data: [summary], total_count: 1, page: 1, items_per_page: 10, pages: 1 });
    const page = await api.fetchBatchCalls({
      is_archived: true,
      page: 2,
      search: "  ",
      status: undefined,
      type: "scheduled",
    });
    expect(page.data[0]?.name).toBe("Renewals");
    expect(request).toHaveBeenCalledWith("/batch-calls", {
      query: {
        is_archived: true,
        page: 2,
        items_per_page: 10,
        search: undefined,
        status: undefined,
        type: "scheduled",
        sort_by: undefined,
        sort_order: undefined,
      },
    });
  });

  it("creates, reads, edits and deletes at the spec's paths", async () => {
    request.mockResolvedValue(batch);
    const body = {
      name: "Renewals",
      from_phone_number_id: summary.from_phone_number_id,
      phone_numbers: ["+14155550100"],
    };
    expect((await api.createBatchCall(body)).id).toBe(summary.id);
    expect(request).toHaveBeenLastCalledWith("/batch-calls", { method: "POST", body });
    await api.fetchBatchCall(summary.id);
    expect(request).toHaveBeenLastCalledWith(`/batch-calls/${summary.id}`);
    await api.updateBatchCall(summary.id, { name: "Renewals 2" });
    expect(request).toHaveBeenLastCalledWith(`/batch-calls/${summary.id}`, {
      method: "PUT",
      body: { name: "Renewals 2" },
    });
    request.mockResolvedValue({ message: "Batch call deleted" });
    await api.deleteBatchCall(summary.id);
    expect(request).toHaveBeenLastCalledWith(`/batch-calls/${summary.id}`, { method: "DELETE" });
  });

  it("initiates with the batch_call_id query, stops and archives", async () => {
    request.mockResolvedValue(batch);
    await api.initiateBatchCall(summary.id);
    expect(request).toHaveBeenLastCalledWith("/initiate_batch_call", {
      method: "POST",
      query: { batch_call_id: summary.id },
    });
    await api.stopBatchCall(summary.id);
    expect(request).toHaveBeenLastCalledWith(`/batch-calls/${summary.id}/stop`, { method: "POST" });
    await api.archiveBatchCall(summary.id);
    expect(request).toHaveBeenLastCalledWith(`/batch-calls/${summary.id}/archive`, {
      method: "PUT",
      body: { is_archived: true },
    });
  });

  it("adds and removes numbers, and sends a CSV as multipart with its fields", async () => {
    const change = { added: 1, removed: 0, duplicates: [], invalid: [], do_not_call: [], batch_call: summary };
    request.mockResolvedValue(change);
    await api.addBatchNumbers(summary.id, ["+14155550100"], "US");
    expect(request).toHaveBeenLastCalledWith(`/batch-calls/${summary.id}/add-numbers`, {
      method: "POST",
      body: { phone_numbers: ["+14155550100"], default_country: "US" },
    });
    await api.removeBatchNumbers(summary.id, ["+14155550100"]);
    expect(request).toHaveBeenLastCalledWith(`/batch-calls/${summary.id}/remove-number`, {
      method: "DELETE",
      body: { phone_numbers: ["+14155550100"] },
    });

    const layout = {
      has_header: true,
      separator: ",",
      phone_column: "phone",
      variable_columns: ["first_name"],
      timezone_column: null,
      total_rows: 1,
    };
    request.mockResolvedValue({ ...change, layout, preview: [], dry_run: true, batch_call: null });
    const file = new File(["phone,first_name\n+14155550100,Ada\n"], "contacts.csv", { type: "text/csv" });
    const report = await api.importBatchCsv(summary.id, { file, defaultCountry: "GB", dryRun: true });
    expect(report.dry_run).toBe(true);
    const [path, options] = request.mock.lastCall ?? [];
    expect(path).toBe(`/batch-calls/${summary.id}/import-csv`);
    const form: unknown = options.body;
    if (!(form instanceof FormData)) throw new Error("the CSV was not sent as multipart");
    expect(form.get("default_country")).toBe("GB");
    expect(form.get("dry_run")).toBe("true");
    expect(form.get("file")).toBeInstanceOf(File);
  });

  it("reads and changes the do-not-call list", async () => {
    request.mockResolvedValue({ data: [], total_count: 0, page: 1, items_per_page: 50, pages: 0 });
    await api.fetchDoNotCall(1, " +1415 ");
    expect(request).toHaveBeenLastCalledWith("/do-not-call", { query: { page: 1, search: "+1415" } });
    request.mockResolvedValue({ added: 1, removed: 0, duplicates: [], invalid: [] });
    await api.addDoNotCall(["+14155550100"], "asked");
    expect(request).toHaveBeenLastCalledWith("/do-not-call", {
      method: "POST",
      body: { phone_numbers: ["+14155550100"], reason: "asked" },
    });
    await api.removeDoNotCall(["+14155550100"]);
    expect(request).toHaveBeenLastCalledWith("/do-not-call", {
      method: "DELETE",
      body: { phone_numbers: ["+14155550100"] },
    });
  });

  it("refuses an answer that is not a batch call", async () => {
    request.mockResolvedValue({ id: 1 });
    await expect(api.fetchBatchCall("x")).rejects.toThrow();
  });
});
