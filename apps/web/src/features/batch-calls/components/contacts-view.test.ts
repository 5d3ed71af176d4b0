import type { BatchCall, BatchContact } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { contactsVersion, contactsViewOf, pageFromCampaign } from "./contacts-view.ts";

const contact = (number: string): BatchContact => ({
  number,
  variables: {},
  timezone: null,
  status: "pending",
  attempts: 0,
  last_outcome: null,
  call_id: null,
  next_attempt_at: null,
  updated_at: "2026-11-23T10:00:00Z",
});

/** A 50,000-contact campaign as its read answers: the figures of all, the first 25 contacts. */
const campaign = {
  id: "5f0c6c1e-3d1e-4c55-9f39-2a4f3b1f0a01",
  status: "running",
  updatedAt: "2026-11-23T10:00:00Z",
  progress: {
    total: 50_000,
    dialled: 10,
    answered: 5,
    failed: 0,
    in_progress: 5,
    pending: 49_990,
    do_not_call: 0,
    cancelled: 0,
  },
  phone_numbers: Array.from({ length: 25 }, (_, i) => contact(`+1415200${String(i).padStart(4, "0")}`)),
} as BatchCall;

describe("the contacts a campaign's page shows", () => {
  it("reads the page and the state from the URL, a state the API would refuse as all", () => {
    expect(contactsViewOf(new URLSearchParams("page=3&status=no-answer"))).toEqual({ page: 3, status: "no-answer" });
    expect(contactsViewOf(new URLSearchParams("status=lost&page=x"))).toEqual({ page: 1, status: undefined });
  });

  it("takes the first page of all from the campaign's read, and asks the server for any other", () => {
    expect(pageFromCampaign(campaign, { page: 1, status: undefined })).toEqual({
      data: campaign.phone_numbers,
      total_count: 50_000,
      page: 1,
      items_per_page: 25,
      pages: 2_000,
    });
    expect(pageFromCampaign(campaign, { page: 2, status: undefined })).toBeNull();
    expect(pageFromCampaign(campaign, { page: 1, status: "answered" })).toBeNull();
  });

  it("asks a page again when the campaign's figures move, not on every poll", () => {
    const same = { ...campaign, phone_numbers: [] };
    expect(contactsVersion(same)).toBe(contactsVersion(campaign));
    const moved = { ...campaign, progress: { ...campaign.progress, answered: 6, in_progress: 4 } };
    expect(contactsVersion(moved)).not.toBe(contactsVersion(campaign));
    expect(contactsVersion({ ...campaign, updatedAt: "2026-11-23T10:05:00Z" })).not.toBe(contactsVersion(campaign));
  });
});
