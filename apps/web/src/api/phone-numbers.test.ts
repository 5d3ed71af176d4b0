import { PHONE_NUMBER_TEXTS } from "@parley/contract";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError, toApiError } from "../lib/api-error.ts";

const request = vi.fn();
vi.mock("../lib/http-client.ts", () => ({ ApiError, api: { request: (...args: unknown[]) => request(...args) } }));

const api = await import("./phone-numbers.ts");

const number = {
  id: "5f0c6c1e-3d1e-4c55-9f39-2a4f3b1f0a01",
  friendly_name: "Front desk",
  number: "+14155550123",
  country: "US",
  provider: "sip_trunk",
  agent_id: null,
  outbound_agent_id: null,
  agent_name: null,
  outbound_agent_name: null,
  integration_id: null,
  provider_number_id: null,
  sip_trunk: null,
  extension: null,
  whatsapp: null,
  created_at: "2026-11-23T10:00:00Z",
  updated_at: "2026-11-23T10:00:00Z",
};

// A block body: a function returned from beforeEach would run as a cleanup hook (and call the mock).
beforeEach(() => {
  request.mockReset();
});

describe("phone number API (spec §7)", () => {
  it("reads the list from phone_numbers and parses each number", async () => {
    request.mockResolvedValue({ phone_numbers: [number] });
    const queryFn = api.phoneNumbersQuery("w1").queryFn as () => Promise<unknown>;
    expect(await queryFn()).toEqual([number]);
    expect(request).toHaveBeenCalledWith("/phone-numbers", undefined);
  });

  it("creates, updates and deletes at the spec's paths", async () => {
    request.mockResolvedValue(number);
    const body = { number: "+14155550123", provider: "sip_trunk" as const };
    expect(await api.createPhoneNumber(body)).toEqual(number);
    expect(request).toHaveBeenLastCalledWith("/phone-numbers", { method: "POST", body });
    await api.updatePhoneNumber(number.id, { agent_id: null });
    expect(request).toHaveBeenLastCalledWith(`/phone-numbers/${number.id}`, {
      method: "PATCH",
      body: { agent_id: null },
    });
    request.mockResolvedValue(undefined);
    await api.deletePhoneNumber(number.id);
    expect(request).toHaveBeenLastCalledWith(`/phone-numbers/${number.id}`, { method: "DELETE" });
  });

  it("asks for countries in the interface language", async () => {
    request.mockResolvedValue({ countries: [{ code: "GB", label: "Royaume-Uni", dialing_prefix: "+44" }] });
    expect(await api.fetchCountries("fr")).toEqual([{ code: "GB", label: "Royaume-Uni", dialing_prefix: "+44" }]);
    expect(request).toHaveBeenCalledWith("/phone-numbers/countries", { query: { locale: "fr" } });
  });

  it("imports, creates extensions, reads their status, integrates messaging numbers and calls out", async () => {
    request.mockResolvedValueOnce({ imported_count: 2, failed_count: 1, failures: [{ number: "+1", reason: "x" }] });
    const importBody = { provider: "twilio" as const, integration_id: number.id };
    expect((await api.importNumbers(importBody)).imported_count).toBe(2);
    expect(request).toHaveBeenLastCalledWith("/phone-numbers/providers/import-numbers", {
      method: "POST",
      body: importBody,
    });

    request.mockResolvedValueOnce({
      extension: "1001",
      domain: "sip.example.com",
      status: "REGED",
      contact: null,
      expires_at: null,
    });
    expect((await api.fetchExtensionStatus({ extension: "1001", domain: "sip.example.com" })).status).toBe("REGED");
    expect(request).toHaveBeenLastCalledWith("/phone-numbers/extensions/status", {
      method: "POST",
      body: { extension: "1001", domain: "sip.example.com" },
    });

    const sip = {
      username: "1001",
      password: "pw",
      domain: "sip.example.com",
      registrar: "127.0.0.1:5060",
      transport: ["udp"],
    };
    request.mockResolvedValueOnce({ phone_number: number, sip });
    expect((await api.createExtension({ ext: "1001", domain: "sip.example.com" })).sip).toEqual(sip);
    expect(request).toHaveBeenLastCalledWith("/phone-numbers/extensions", expect.objectContaining({ method: "POST" }));

    const webhook = { callback_url: "https://parley.example/api/v1/hook", verify_token: "vt" };
    request.mockResolvedValueOnce({ phone_number: number, webhook });
    const messaging = {
      number: "+14155550123",
      access_token: "t",
      phone_number_id: "12345",
      business_account_id: "67890",
    };
    expect((await api.integrateMessagingNumber(messaging)).webhook).toEqual(webhook);
    expect(request.mock.lastCall?.[0]).toMatch(/^\/phone-numbers\/[a-z]+\/integrate$/);

    const call = { call_id: "c1", status: "queued", provider_call_id: "CA1", from_number: "+1", to_number: "+2" };
    request.mockResolvedValueOnce(call);
    expect(await api.makeOutboundCall({ caller_uuid: number.id, destination_number: "+14155550100" })).toEqual(call);
    expect(request).toHaveBeenLastCalledWith("/make_outbound_call", {
      method: "POST",
      body: { caller_uuid: number.id, destination_number: "+14155550100" },
    });
  });
});

describe("phone number failures (spec §8)", () => {
  it.each([
    [409, PHONE_NUMBER_TEXTS.duplicate],
    [422, PHONE_NUMBER_TEXTS.invalidNumber],
    [502, PHONE_NUMBER_TEXTS.configureFailed],
    [503, PHONE_NUMBER_TEXTS.busy],
    [400, PHONE_NUMBER_TEXTS.badCredentials],
    [500, PHONE_NUMBER_TEXTS.switchUnreachable],
  ])("show the server's %i text as returned", async (status, text) => {
    request.mockRejectedValue(toApiError(status, { detail: text }));
    const failure = await api.createPhoneNumber({ number: "1", provider: "sip_trunk" }).catch((e: unknown) => e);
    expect(failure instanceof Error && failure.message).toBe(text);
  });

  it("keeps the status words for other failures and a 422 that names its fields", async () => {
    request.mockRejectedValue(toApiError(404, { detail: "Phone number not found" }));
    await expect(api.fetchPhoneNumber("x")).rejects.toThrow("Service not found: Phone number not found");
    request.mockRejectedValue(
      toApiError(422, { detail: "body.number: too long", errors: [{ field: "number", message: "Too long" }] }),
    );
    await expect(api.createPhoneNumber({ number: "1", provider: "sip_trunk" })).rejects.toThrow(
      "Validation error: Too long",
    );
    request.mockRejectedValue(toApiError(500, { detail: "Internal server error" }));
    await expect(api.fetchPhoneNumbers()).rejects.toThrow(/^Server error/);
  });
});

describe("saved integrations", () => {
  const entry = (provider: string, configured: boolean, id?: string) => ({
    provider,
    label: provider,
    kind: "telephony" as const,
    kinds: ["telephony" as const],
    fields: [],
    configured,
    source: configured ? ("workspace" as const) : null,
    values: {},
    last_test: null,
    updated_at: null,
    id,
  });

  it("offers only the provider's stored credentials that have an id", () => {
    const list = [
      entry("twilio", true, number.id),
      entry("telnyx", true, "6f0c6c1e-3d1e-4c55-9f39-2a4f3b1f0a02"),
      entry("plivo", false),
      entry("vonage", true),
    ];
    expect(api.savedIntegrationsFor(list, "twilio").map((i) => i.id)).toEqual([number.id]);
    expect(api.savedIntegrationsFor(list, "plivo")).toEqual([]);
    expect(api.savedIntegrationsFor(list, "vonage")).toEqual([]);
    expect(api.savedIntegrationsFor(undefined, "twilio")).toEqual([]);
  });
});
