import { describe, expect, it } from "vitest";
import { batchCallForm, batchFormDefaults, numbersFromText, toCreateBody, toUpdateBody } from "./batch-call-form.ts";
import { previewCsv } from "./csv-preview.ts";
import { isoToZoned, zonedToIso } from "./zoned-time.ts";

const messages = {
  nameRequired: "name",
  fromRequired: "from",
  scheduleRequired: "schedule",
  schedulePast: "past",
  timezoneInvalid: "tz",
  windowEmpty: "window",
  wholeNumber: (min: number, max: number) => `whole ${min}-${max}`,
  spendCap: "cap",
  country: "country",
  tooManyNumbers: "many",
};
const NOW = Date.parse("2026-11-23T12:00:00Z");
const schema = batchCallForm(messages, { now: () => NOW, creating: true });
const valid = { ...batchFormDefaults("Europe/Paris"), name: "Renewals", from_phone_number_id: "n1" };
const errorsOf = (values: unknown) => {
  const result = schema.safeParse(values);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join("."), i.message]));
};

describe("schedule picker times", () => {
  it("reads a wall-clock time in the campaign's zone, winter and summer", () => {
    expect(zonedToIso("2026-12-01T09:30", "Europe/Paris")).toBe("2026-12-01T09:30:00+01:00");
    expect(zonedToIso("2026-07-01T09:30", "Europe/Paris")).toBe("2026-07-01T09:30:00+02:00");
    expect(zonedToIso("2026-07-01T09:30", "America/New_York")).toBe("2026-07-01T09:30:00-04:00");
    expect(zonedToIso("2026-07-01T09:30", "Asia/Kolkata")).toBe("2026-07-01T09:30:00+05:30");
    expect(zonedToIso("", "UTC")).toBeNull();
  });

  it("moves a time skipped by a clock change forward, and shows a stored time back in its zone", () => {
    expect(zonedToIso("2026-03-29T02:30", "Europe/Paris")).toBe("2026-03-29T03:30:00+02:00");
    expect(isoToZoned("2026-12-01T08:30:00Z", "Europe/Paris")).toBe("2026-12-01T09:30");
    expect(isoToZoned(null, "UTC")).toBe("");
  });
});

describe("batch call form", () => {
  it("accepts the defaults with a name and a number to call from", () => {
    expect(errorsOf(valid)).toEqual({});
  });

  it("says what is missing beside each field", () => {
    expect(errorsOf({ ...valid, name: " ", from_phone_number_id: "" })).toEqual({
      name: "name",
      from_phone_number_id: "from",
    });
    expect(errorsOf({ ...valid, start: "later", scheduled_local: "" })).toEqual({ scheduled_local: "schedule" });
    expect(errorsOf({ ...valid, start: "later", scheduled_local: "2026-11-01T09:00" })).toEqual({
      scheduled_local: "past",
    });
    expect(errorsOf({ ...valid, timezone: "Mars/Olympus" })).toEqual({ timezone: "tz" });
    expect(errorsOf({ ...valid, window_enabled: true, window_days: [] })).toEqual({ window_end: "window" });
    expect(errorsOf({ ...valid, window_enabled: true, window_start: "18:00", window_end: "09:00" })).toEqual({
      window_end: "window",
    });
    expect(
      errorsOf({ ...valid, max_attempts: "0", concurrency: "1.5", spend_cap: "-1", default_country: "USA" }),
    ).toEqual({
      max_attempts: "whole 1-10",
      concurrency: "whole 1-1000",
      spend_cap: "cap",
      default_country: "country",
    });
  });

  it("builds the create body: typed numbers, a scheduled time with its offset, window and retries", () => {
    const body = toCreateBody({
      ...valid,
      numbers: "+14155550100\n+14155550101, +14155550100;\n\n",
      start: "later",
      scheduled_local: "2026-12-01T09:30",
      window_enabled: true,
      window_days: [5, 1],
      max_attempts: "3",
      delay_minutes: "10",
      retry_on: ["busy", "no-answer"],
      spend_cap: "12.5",
      default_country: "us",
    });
    expect(body).toMatchObject({
      name: "Renewals",
      agent_id: null,
      phone_numbers: ["+14155550100", "+14155550101"],
      scheduled_time: "2026-12-01T09:30:00+01:00",
      timezone: "Europe/Paris",
      calling_window: { days: [1, 5], start: "09:00", end: "18:00", timezone: "recipient" },
      retry_policy: { max_attempts: 3, delay_seconds: 600, retry_on: ["no-answer", "busy"] },
      concurrency: 5,
      spend_cap: 12.5,
      default_country: "US",
    });
  });

  it("sends an empty schedule as null (spec §5) and never replaces the numbers on edit", () => {
    expect(toCreateBody(valid).scheduled_time).toBeNull();
    expect(toUpdateBody({ ...valid, numbers: "+14155550100" })).not.toHaveProperty("phone_numbers");
  });

  it("splits pasted numbers on lines, commas and semicolons", () => {
    expect(numbersFromText(" +1 415 555 0100 \r\n+14155550101;+14155550102,,")).toEqual([
      "+1 415 555 0100",
      "+14155550101",
      "+14155550102",
    ]);
  });
});

describe("CSV preview", () => {
  it("finds the header and phone column, keeps the other columns as variables, and reports bad rows by line", () => {
    const result = previewCsv(
      "\uFEFFfirst_name;phone;city\nAda;+14155550100;Paris\nBob;call me;Rome\nCy;+14155550100;Oslo\n",
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.preview).toMatchObject({
      separator: ";",
      hasHeader: true,
      phoneColumn: "phone",
      variableColumns: ["first_name", "city"],
      total: 3,
      rows: [{ line: 2, number: "+14155550100", variables: { first_name: "Ada", city: "Paris" } }],
      problems: [
        { line: 3, value: "call me", reason: "invalid" },
        { line: 4, value: "+14155550100", reason: "duplicate" },
      ],
    });
  });

  it("reads a file of bare numbers without a header, and quoted fields", () => {
    const result = previewCsv('+14155550100,"Smith, Ada"\r\n+14155550101,"Say ""hi"""\r\n');
    expect(result.ok && result.preview.hasHeader).toBe(false);
    expect(result.ok && result.preview.rows.map((r) => r.variables.column_2)).toEqual(["Smith, Ada", 'Say "hi"']);
  });

  it("refuses an empty file and an unclosed quote", () => {
    expect(previewCsv("\n\n")).toEqual({ ok: false, reason: "empty", line: 0 });
    expect(previewCsv('phone\n+14155550100\n"+1415')).toEqual({ ok: false, reason: "malformed", line: 3 });
  });
});
