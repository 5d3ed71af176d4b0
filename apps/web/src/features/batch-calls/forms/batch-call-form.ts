import {
  BATCH_CALL_DEFAULT_CONCURRENCY,
  BATCH_CALL_MAX_CONCURRENCY,
  BATCH_CALL_MAX_CONTACTS,
  type BatchCallSummary,
  RETRYABLE_OUTCOMES,
  RetryableOutcome,
  type UpdateBatchCallBody,
} from "@parley/contract";
import { z } from "zod";
import type { NewBatchCall } from "../../../api/batch-calls.ts";
import { isoToZoned, isTimeZone, zonedToIso } from "./zoned-time.ts";

/** The speaker select's value for a squad (its id behind a prefix no assistant id has). */
export const SQUAD_OPTION = "squad:";

/** The sentences the form says, in the interface language. */
export interface BatchFormMessages {
  nameRequired: string;
  fromRequired: string;
  scheduleRequired: string;
  schedulePast: string;
  timezoneInvalid: string;
  windowEmpty: string;
  wholeNumber: (min: number, max: number) => string;
  spendCap: string;
  country: string;
  tooManyNumbers: string;
}

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** Typed or pasted numbers: one a line, or separated by commas or semicolons; blanks dropped, repeats kept once. */
export function numbersFromText(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of text.split(/[\n,;]+/)) {
    const number = raw.trim();
    if (number && !seen.has(number)) {
      seen.add(number);
      out.push(number);
    }
  }
  return out;
}

const wholeIn = (value: string, min: number, max: number) => {
  if (!/^\d+$/.test(value.trim())) return false;
  const n = Number(value);
  return n >= min && n <= max;
};

/**
 * The create/edit dialog's fields, as the inputs hold them (numbers as text). Cross-field rules: a
 * later start needs its date and time (in the future when creating), a calling window needs a day
 * and an end after its start.
 */
export const batchCallForm = (m: BatchFormMessages, options: { now: () => number; creating: boolean }) =>
  z
    .object({
      name: z.string().trim().min(1, m.nameRequired).max(100),
      agent_id: z.string(),
      from_phone_number_id: z.string().min(1, m.fromRequired),
      numbers: z.string(),
      start: z.enum(["now", "later"]),
      scheduled_local: z.string(),
      timezone: z.string().trim(),
      window_enabled: z.boolean(),
      window_days: z.array(z.number().int().min(1).max(7)),
      window_start: z.string(),
      window_end: z.string(),
      window_timezone: z.enum(["recipient", "campaign"]),
      max_attempts: z.string(),
      delay_minutes: z.string(),
      retry_on: z.array(RetryableOutcome),
      concurrency: z.string(),
      spend_cap: z.string(),
      default_country: z.string().trim(),
    })
    .superRefine((v, ctx) => {
      const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
      if (!isTimeZone(v.timezone)) issue("timezone", m.timezoneInvalid);
      if (v.start === "later") {
        const iso = isTimeZone(v.timezone) ? zonedToIso(v.scheduled_local, v.timezone) : null;
        if (!iso) issue("scheduled_local", m.scheduleRequired);
        else if (options.creating && Date.parse(iso) <= options.now()) issue("scheduled_local", m.schedulePast);
      }
      if (
        v.window_enabled &&
        (v.window_days.length === 0 ||
          !HHMM.test(v.window_start) ||
          !HHMM.test(v.window_end) ||
          v.window_end <= v.window_start)
      )
        issue("window_end", m.windowEmpty);
      if (!wholeIn(v.max_attempts, 1, 10)) issue("max_attempts", m.wholeNumber(1, 10));
      if (!wholeIn(v.delay_minutes, 0, 7 * 24 * 60)) issue("delay_minutes", m.wholeNumber(0, 7 * 24 * 60));
      if (!wholeIn(v.concurrency, 1, BATCH_CALL_MAX_CONCURRENCY))
        issue("concurrency", m.wholeNumber(1, BATCH_CALL_MAX_CONCURRENCY));
      if (v.spend_cap.trim() !== "" && !(Number(v.spend_cap) > 0)) issue("spend_cap", m.spendCap);
      if (v.default_country !== "" && !/^[A-Za-z]{2}$/.test(v.default_country)) issue("default_country", m.country);
      if (numbersFromText(v.numbers).length > BATCH_CALL_MAX_CONTACTS) issue("numbers", m.tooManyNumbers);
    });

export type BatchFormValues = z.output<ReturnType<typeof batchCallForm>>;

export const batchFormDefaults = (timezone: string): BatchFormValues => ({
  name: "",
  agent_id: "",
  from_phone_number_id: "",
  numbers: "",
  start: "now",
  scheduled_local: "",
  timezone,
  window_enabled: false,
  window_days: [1, 2, 3, 4, 5],
  window_start: "09:00",
  window_end: "18:00",
  window_timezone: "recipient",
  max_attempts: "1",
  delay_minutes: "5",
  retry_on: ["no-answer", "busy"],
  concurrency: String(BATCH_CALL_DEFAULT_CONCURRENCY),
  spend_cap: "",
  default_country: "",
});

/** An existing campaign's settings in the form (its numbers are not: edits add numbers). */
export function batchFormValues(batch: BatchCallSummary): BatchFormValues {
  const window = batch.calling_window;
  return {
    ...batchFormDefaults(batch.timezone),
    name: batch.name,
    agent_id: batch.squad_id ? `${SQUAD_OPTION}${batch.squad_id}` : (batch.agent_id ?? ""),
    from_phone_number_id: batch.from_phone_number_id,
    start: batch.scheduled_time ? "later" : "now",
    scheduled_local: isoToZoned(batch.scheduled_time, batch.timezone),
    window_enabled: window !== null,
    window_days: window ? [...window.days] : [1, 2, 3, 4, 5],
    window_start: window?.start ?? "09:00",
    window_end: window?.end ?? "18:00",
    window_timezone: window?.timezone ?? "recipient",
    max_attempts: String(batch.retry_policy.max_attempts),
    delay_minutes: String(Math.round(batch.retry_policy.delay_seconds / 60)),
    retry_on: [...batch.retry_policy.retry_on],
    concurrency: String(batch.concurrency),
    spend_cap: batch.spend_cap === null ? "" : String(batch.spend_cap),
    default_country: batch.default_country ?? "",
  };
}

/** The settings every save sends (create and edit alike); numbers travel separately on edit. */
function settingsOf(v: BatchFormValues) {
  return {
    name: v.name.trim(),
    // The one select holds an assistant or a squad (issue 31): a squad's value carries a prefix.
    agent_id: v.agent_id.startsWith(SQUAD_OPTION) ? null : v.agent_id || null,
    squad_id: v.agent_id.startsWith(SQUAD_OPTION) ? v.agent_id.slice(SQUAD_OPTION.length) : null,
    from_phone_number_id: v.from_phone_number_id,
    // Spec §5: an empty scheduled time is sent as null.
    scheduled_time: v.start === "later" ? zonedToIso(v.scheduled_local, v.timezone) : null,
    timezone: v.timezone,
    calling_window: v.window_enabled
      ? {
          days: WEEKDAYS.filter((d) => v.window_days.includes(d)),
          start: v.window_start,
          end: v.window_end,
          timezone: v.window_timezone,
        }
      : null,
    retry_policy: {
      max_attempts: Number(v.max_attempts),
      delay_seconds: Number(v.delay_minutes) * 60,
      retry_on: RETRYABLE_OUTCOMES.filter((o) => v.retry_on.includes(o)),
    },
    concurrency: Number(v.concurrency),
    spend_cap: v.spend_cap.trim() === "" ? null : Number(v.spend_cap),
    default_country: v.default_country ? v.default_country.toUpperCase() : null,
  };
}

/** POST /batch-calls: the settings with the typed numbers. */
export const toCreateBody = (v: BatchFormValues): NewBatchCall => ({
  ...settingsOf(v),
  phone_numbers: numbersFromText(v.numbers),
});

/** PUT /batch-calls/{id}: the settings only (phone_numbers would replace the list and lose its variables). */
export const toUpdateBody = (v: BatchFormValues): UpdateBatchCallBody => settingsOf(v);
