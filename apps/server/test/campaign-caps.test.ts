import type { BatchCall, BatchContactPage, NumbersChangeResponse } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { uploadCsv } from "./batch-calls/upload-csv.ts";
import { createCampaign, numbers, readCampaign, seedContacts, useCampaignWorld } from "./batch-calls/world.ts";
import { signedInUser } from "./harness.ts";

/**
 * Issue 25 item 11: the 50,000-contact cap holds per campaign, whichever way contacts come in (create,
 * add-numbers, CSV import; concurrent adds included), and the campaign's read stays small however
 * many contacts it has: its contacts are paged.
 */

const world = useCampaignWorld();

/** Contacts in the campaigns below: 10 short of the cap. */
const NEAR_CAP = 49_990;

const capText = (has: string, more: string, adding: string) =>
  `A batch call can have at most 50,000 phone numbers. This one has ${has}, so ${more} can be added (this request adds ${adding}).`;

/** A campaign 10 contacts short of the cap: numbers(NEAR_CAP). */
async function nearlyFull() {
  const campaign = await createCampaign(world, {});
  await seedContacts(world, campaign.id, NEAR_CAP);
  return campaign;
}

/** The campaign's contact count, read from its (small) summary. */
const totalOf = async (id: string) => (await readCampaign(world, id)).progress.total;

const addNumbers = (id: string, phoneNumbers: string[]) =>
  world.api("POST", `/batch-calls/${id}/add-numbers`, { phone_numbers: phoneNumbers });

describe("the campaign contact cap", () => {
  it("refuses add-numbers past 50,000 contacts, saying how many more fit, and adds nothing", async () => {
    const campaign = await nearlyFull();
    const over = await addNumbers(campaign.id, numbers(20, NEAR_CAP));
    expect(over.statusCode).toBe(422);
    expect(over.json().detail).toBe(capText("49,990", "10 more", "20"));
    expect(await totalOf(campaign.id)).toBe(NEAR_CAP);

    // Repeats of the campaign's own numbers do not count against the room.
    const fits = await addNumbers(campaign.id, [...numbers(5), ...numbers(10, NEAR_CAP)]);
    expect(fits.statusCode).toBe(200);
    expect(fits.json<NumbersChangeResponse>()).toMatchObject({
      added: 10,
      batch_call: { progress: { total: 50_000 } },
    });

    const full = await addNumbers(campaign.id, numbers(1, 90_000));
    expect(full.statusCode).toBe(422);
    expect(full.json().detail).toBe(capText("50,000", "no more", "1"));
    expect(await totalOf(campaign.id)).toBe(50_000);
  }, 120_000);

  it("counts the campaign's contacts on a CSV import, dry run included", async () => {
    const campaign = await nearlyFull();
    const csv = (from: number, n: number) => `phone\n${numbers(n, from).join("\n")}\n${numbers(1)[0]}\n`;

    const preview = await uploadCsv(world, `/batch-calls/${campaign.id}/import-csv`, csv(NEAR_CAP, 11), {
      dry_run: "true",
    });
    expect(preview.statusCode).toBe(422);
    expect(preview.json().detail).toBe(capText("49,990", "10 more", "11"));

    const over = await uploadCsv(world, `/batch-calls/${campaign.id}/import-csv`, csv(NEAR_CAP, 11));
    expect(over.statusCode).toBe(422);
    expect(over.json().detail).toBe(capText("49,990", "10 more", "11"));
    expect(await totalOf(campaign.id)).toBe(NEAR_CAP);

    const fits = await uploadCsv(world, `/batch-calls/${campaign.id}/import-csv`, csv(NEAR_CAP, 10));
    expect(fits.statusCode).toBe(200);
    expect(fits.json()).toMatchObject({ added: 10, duplicates: [{ value: numbers(1)[0] }] });
    expect(await totalOf(campaign.id)).toBe(50_000);
  }, 120_000);

  it("lets only one of two concurrent adds take the last room", async () => {
    const campaign = await nearlyFull();
    const answers = await Promise.all([
      addNumbers(campaign.id, numbers(10, 60_000)),
      addNumbers(campaign.id, numbers(10, 70_000)),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 422]);
    expect(answers.find((a) => a.statusCode === 422)?.json().detail).toBe(capText("50,000", "no more", "10"));
    expect(await totalOf(campaign.id)).toBe(50_000);
  }, 120_000);
});

describe("a campaign's contacts", () => {
  it("are left out of the campaign's read but for a first page, so its poll stays small", async () => {
    // Made through the API as a user would: the cap allows 50,000 in one request.
    const campaign = await createCampaign(world, { phone_numbers: numbers(50_000) });
    expect(campaign.phone_numbers).toHaveLength(25);

    const poll = await world.api("GET", `/batch-calls/${campaign.id}`);
    expect(poll.statusCode).toBe(200);
    // 50,000 contacts were ≈10 MB here before they were paged.
    expect(poll.body.length).toBeLessThan(16 * 1024);
    const read = poll.json<BatchCall>();
    expect(read.progress).toMatchObject({ total: 50_000, pending: 50_000 });
    expect(read.phone_numbers.map((c) => c.number)).toEqual(numbers(25));

    const page = await world.api("GET", `/batch-calls/${campaign.id}/contacts?page=3&items_per_page=100`);
    expect(page.statusCode).toBe(200);
    const contacts = page.json<BatchContactPage>();
    expect(contacts).toMatchObject({ total_count: 50_000, page: 3, items_per_page: 100, pages: 500 });
    expect(contacts.data.map((c) => c.number)).toEqual(numbers(100, 200));

    const last = await world.api("GET", `/batch-calls/${campaign.id}/contacts?page=2000`);
    expect(last.json<BatchContactPage>().data.map((c) => c.number)).toEqual(numbers(25, 49_975));
  }, 120_000);

  it("are paged by status, one page at most 500, and only in their own workspace", async () => {
    const campaign = await createCampaign(world, { phone_numbers: numbers(3) });
    const base = `/batch-calls/${campaign.id}/contacts`;
    const pending = (await world.api("GET", `${base}?status=pending`)).json<BatchContactPage>();
    expect(pending).toMatchObject({ total_count: 3, pages: 1 });
    expect((await world.api("GET", `${base}?status=answered`)).json<BatchContactPage>()).toMatchObject({
      data: [],
      total_count: 0,
    });
    expect((await world.api("GET", `${base}?items_per_page=501`)).statusCode).toBe(422);

    const stranger = await signedInUser(world.t);
    const elsewhere = await world.t.app.inject({
      method: "GET",
      url: `/api/v1${base}`,
      headers: { authorization: `Bearer ${stranger.token}` },
    });
    expect(elsewhere.statusCode).toBe(404);
  });
});
