import type {
  BatchCall,
  BatchCallPage,
  CsvImportResponse,
  DoNotCallChangeResponse,
  DoNotCallPage,
} from "@parley/contract";
import { describe, expect, it } from "vitest";
import { uploadCsv as uploadCsvAs } from "./batch-calls/upload-csv.ts";
import { createCampaign, getCampaign, initiate, numbers, useCampaignWorld } from "./batch-calls/world.ts";
import { signedInUser } from "./harness.ts";

/** Batch calls API (issue 14 items 1, 2, 5): fields, status rules, paging, CSV import, do-not-call list. */

const world = useCampaignWorld();

/** POSTs a CSV file to `url` as multipart with the given extra fields. */
const uploadCsv = (url: string, csv: string | Buffer, fields: Record<string, string> = {}) =>
  uploadCsvAs(world, url, csv, fields);

describe("a batch call", () => {
  it("is created with contacts as strings or objects with variables, normalised to E.164", async () => {
    const created = await createCampaign(world, {
      phone_numbers: ["(415) 555-0142", { number: "+44 20 7183 8750", variables: { first_name: "Ada" } }],
      default_country: "US",
      scheduled_time: "",
    });
    expect(created).toMatchObject({ status: "created", scheduled_time: null, is_archived: false, concurrency: 5 });
    expect(created.phone_numbers.map((c) => c.number)).toEqual(["+14155550142", "+442071838750"]);
    expect(created.phone_numbers[1]?.variables).toEqual({ first_name: "Ada" });
    expect(created.progress).toMatchObject({ total: 2, pending: 2, dialled: 0 });
    expect(typeof created.updatedAt).toBe("string");
  });

  it("refuses invalid numbers, naming each position", async () => {
    const res = await world.api("POST", "/batch-calls", {
      name: "Bad",
      from_phone_number_id: world.phoneNumberId,
      phone_numbers: ["+14155550142", "not a number"],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual([{ field: "phone_numbers.1", message: "Invalid phone number: not a number" }]);
  });

  it("is edited only before it starts, stopped only while it may dial, archived only when finished", async () => {
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const created = await createCampaign(world, { phone_numbers: numbers(2), scheduled_time: later });
    const started = await initiate(world, created.id);
    expect(started.statusCode).toBe(200);
    expect(started.json<BatchCall>().status).toBe("scheduled");

    const edited = await world.api("PUT", `/batch-calls/${created.id}`, { name: "Renamed" });
    expect(edited.json<BatchCall>().name).toBe("Renamed");

    const archived = await world.api("PUT", `/batch-calls/${created.id}/archive`, {});
    expect(archived.statusCode).toBe(409);
    expect(archived.json().detail).toBe("This batch call cannot be archived while it is scheduled.");

    const stopped = await world.api("POST", `/batch-calls/${created.id}/stop`);
    expect(stopped.json<BatchCall>()).toMatchObject({ status: "cancelled" });
    expect(stopped.json<BatchCall>().phone_numbers.every((c) => c.status === "cancelled")).toBe(true);

    const again = await world.api("POST", `/batch-calls/${created.id}/stop`);
    expect(again.statusCode).toBe(409);
    expect((await world.api("PUT", `/batch-calls/${created.id}`, { name: "x" })).statusCode).toBe(409);
    expect((await initiate(world, created.id)).statusCode).toBe(409);

    const nowArchived = await world.api("PUT", `/batch-calls/${created.id}/archive`, {});
    expect(nowArchived.json<BatchCall>().is_archived).toBe(true);
    expect((await world.api("DELETE", `/batch-calls/${created.id}`)).json()).toEqual({ message: "Batch call deleted" });
    expect((await world.api("GET", `/batch-calls/${created.id}`)).statusCode).toBe(404);
  });

  it("needs numbers to start", async () => {
    const empty = await createCampaign(world, {});
    const res = await initiate(world, empty.id);
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toBe("Add at least one phone number before starting the batch call.");
  });

  it("adds and removes numbers, reporting repeats and invalid ones", async () => {
    const created = await createCampaign(world, { phone_numbers: ["+14155550142"] });
    const added = await world.api("POST", `/batch-calls/${created.id}/add-numbers`, {
      phone_numbers: ["+14155550142", "+14155550143", "+14155550143", "12"],
    });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({
      added: 1,
      duplicates: [
        { line: 1, value: "+14155550142", reason: "Already in this batch call" },
        { line: 3, value: "+14155550143", reason: "Duplicate of line 2: +14155550143" },
      ],
      invalid: [{ line: 4, value: "12", reason: "Invalid phone number: 12" }],
    });
    const removed = await world.api("DELETE", `/batch-calls/${created.id}/remove-number`, {
      phone_numbers: ["+14155550142"],
    });
    expect(removed.json()).toMatchObject({ removed: 1 });
    expect((await getCampaign(world, created.id)).phone_numbers.map((c) => c.number)).toEqual(["+14155550143"]);
  });

  it("is listed 10 a page by updatedAt, archived apart, with search, status and type filters", async () => {
    const other = await signedInUser(world.t);
    const listed = await world.api("GET", "/batch-calls");
    const page = listed.json<BatchCallPage>();
    expect(page.items_per_page).toBe(10);
    const times = page.data.map((b) => b.updatedAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(page.data.every((b) => !b.is_archived)).toBe(true);
    const archived = await world.api("GET", "/batch-calls?is_archived=true");
    expect(archived.json<BatchCallPage>().data.every((b) => b.is_archived)).toBe(true);
    const searched = await world.api("GET", "/batch-calls?search=Spring&status=created&type=immediate");
    expect(searched.json<BatchCallPage>().data.every((b) => b.status === "created" && b.scheduled_time === null)).toBe(
      true,
    );
    // Another workspace sees none of them, and cannot read one by id.
    const theirs = await world.t.app.inject({
      method: "GET",
      url: "/api/v1/batch-calls",
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(theirs.json<BatchCallPage>().total_count).toBe(0);
    const id = page.data[0]?.id;
    const peek = await world.t.app.inject({
      method: "GET",
      url: `/api/v1/batch-calls/${id}`,
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(peek.statusCode).toBe(404);
  });
});

describe("CSV import", () => {
  it("detects the header, the phone column and variable columns, with a BOM and ; separators", async () => {
    const created = await createCampaign(world, {});
    const csv = '\uFEFFFirst Name;Phone;Plan\r\nAda;+14155550150;gold\r\nGrace;(415) 555-0151;"silver; old"\r\n';
    const res = await uploadCsv(`/batch-calls/${created.id}/import-csv`, csv, { default_country: "US" });
    expect(res.statusCode).toBe(200);
    const report = res.json<CsvImportResponse>();
    expect(report.layout).toMatchObject({
      has_header: true,
      separator: ";",
      phone_column: "phone",
      variable_columns: ["first_name", "plan"],
    });
    expect(report.added).toBe(2);
    const contacts = (await getCampaign(world, created.id)).phone_numbers;
    expect(contacts.map((c) => [c.number, c.variables])).toEqual([
      ["+14155550150", { first_name: "Ada", plan: "gold" }],
      ["+14155550151", { first_name: "Grace", plan: "silver; old" }],
    ]);
  });

  it("reports duplicates and invalid numbers line by line and imports the rest", async () => {
    const created = await createCampaign(world, { phone_numbers: ["+14155550160"] });
    const csv = "phone,name\n+14155550160,Old\n+14155550161,A\nhello,B\n+14155550161,C\n+14155550162,D\n";
    const report = (await uploadCsv(`/batch-calls/${created.id}/import-csv`, csv)).json<CsvImportResponse>();
    expect(report.added).toBe(2);
    expect(report.duplicates).toEqual([
      { line: 2, value: "+14155550160", reason: "Already in this batch call" },
      { line: 5, value: "+14155550161", reason: "Duplicate of line 3: +14155550161" },
    ]);
    expect(report.invalid).toEqual([{ line: 4, value: "hello", reason: "Invalid phone number: hello" }]);
  });

  it("imports nothing from a malformed file", async () => {
    const created = await createCampaign(world, {});
    const csv = 'phone,name\n+14155550170,A\n+14155550171,"unclosed\n+14155550172,C\n';
    const res = await uploadCsv(`/batch-calls/${created.id}/import-csv`, csv);
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toBe(
      "The CSV file is malformed at line 3: a quoted field is never closed. Nothing was imported.",
    );
    const wide = await uploadCsv(`/batch-calls/${created.id}/import-csv`, "phone,name\n+14155550170,A,extra\n");
    expect(wide.statusCode).toBe(422);
    expect((await getCampaign(world, created.id)).phone_numbers).toEqual([]);
  });

  it("reads a file without a header, and previews without storing on dry_run", async () => {
    const created = await createCampaign(world, {});
    const res = await uploadCsv(`/batch-calls/${created.id}/import-csv`, "Ada,+14155550180\nGrace,+14155550181\n", {
      dry_run: "true",
    });
    const report = res.json<CsvImportResponse>();
    expect(report).toMatchObject({ dry_run: true, added: 0, layout: { has_header: false, phone_column: "column_2" } });
    expect(report.preview[0]).toEqual({ line: 1, number: "+14155550180", variables: { column_1: "Ada" } });
    expect((await getCampaign(world, created.id)).phone_numbers).toEqual([]);
  });

  it("takes 50,000 rows", async () => {
    const created = await createCampaign(world, {});
    const rows = Array.from({ length: 50_000 }, (_, i) => `+1415${String(3_000_000 + i)},Name ${i}`);
    const res = await uploadCsv(`/batch-calls/${created.id}/import-csv`, `phone,first_name\n${rows.join("\n")}\n`);
    expect(res.statusCode).toBe(200);
    expect(res.json<CsvImportResponse>()).toMatchObject({ added: 50_000, invalid: [], duplicates: [] });
    expect(res.json<CsvImportResponse>().batch_call?.progress.total).toBe(50_000);
  }, 120_000);
});

describe("the do-not-call list", () => {
  it("adds typed numbers and a CSV, lists and removes them, and marks campaign contacts", async () => {
    const added = await world.api("POST", "/do-not-call", { phone_numbers: ["+14155550190", "bad"], reason: "asked" });
    expect(added.json<DoNotCallChangeResponse>()).toMatchObject({
      added: 1,
      invalid: [{ line: 2, value: "bad", reason: "Invalid phone number: bad" }],
    });
    const fromCsv = await uploadCsv("/do-not-call/import-csv", "number\n+14155550191\n+14155550190\n");
    expect(fromCsv.json<DoNotCallChangeResponse>()).toMatchObject({
      added: 1,
      duplicates: [{ line: 3, value: "+14155550190", reason: "Already on the do-not-call list" }],
    });
    const list = (await world.api("GET", "/do-not-call")).json<DoNotCallPage>();
    expect(list.data.map((e) => e.number).sort()).toEqual(["+14155550190", "+14155550191"]);

    const created = await createCampaign(world, { phone_numbers: ["+14155550190", "+14155550192"] });
    expect(created.phone_numbers.map((c) => c.status)).toEqual(["do-not-call", "pending"]);
    expect(created.progress.do_not_call).toBe(1);

    const removed = await world.api("DELETE", "/do-not-call", { phone_numbers: ["+14155550191"] });
    expect(removed.json<DoNotCallChangeResponse>().removed).toBe(1);
  });
});
