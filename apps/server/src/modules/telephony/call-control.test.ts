import { type TelephonyAccount, type TelephonyAdapter, TelephonyError } from "@parley/engine";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../lib/log-options.ts";
import { CallControl } from "./call-control.ts";

const AUTH_TOKEN = "auth-token-value-0123456789";

/** A carrier whose every call-control request fails with `error`. */
function failingCarrier(error: Error): TelephonyAdapter {
  const fail = async () => {
    throw error;
  };
  return { hangup: fail, transfer: fail, sendDtmf: fail } as unknown as TelephonyAdapter;
}

function controlWith(adapter: TelephonyAdapter) {
  const lines: string[] = [];
  const log = createLogger({ level: "info", format: "json" }, { write: (line: string) => lines.push(line) });
  const account = { credentials: { account_sid: "AC1", auth_token: AUTH_TOKEN }, net: { fetch } } as TelephonyAccount;
  const leg = { provider: "twilio", providerCallId: "CA1", ourNumber: "+14155550100", statusUrl: "https://x/status" };
  const links = {
    transferMarkupUrl: async () => "https://x/markup",
    resume: async () => {
      throw new Error("no stream to resume in these tests");
    },
  };
  // stream-socket.ts binds the call's ids to the logger it hands over; the test does the same.
  const bound = log.child({ callId: "call-1", workspaceId: "ws-1" });
  const control = new CallControl(adapter, account, leg, links, bound);
  return { control, entries: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>), lines };
}

describe("CallControl's carrier failures in the log", () => {
  it("logs a hang-up the carrier refused at error with the call, workspace, provider and status", async () => {
    const refused = new TelephonyError("twilio", "unavailable", "twilio: HTTP 503: Service Unavailable", 503);
    const { control, entries, lines } = controlWith(failingCarrier(refused));
    await control.hangup();
    expect(entries()).toEqual([
      expect.objectContaining({
        level: 50,
        msg: "the carrier could not hang up the call",
        callId: "call-1",
        workspaceId: "ws-1",
        provider: "twilio",
        status: 503,
        error: "twilio: HTTP 503: Service Unavailable",
      }),
    ]);
    expect(lines.join("")).not.toContain(AUTH_TOKEN);
  });

  it("logs a refused transfer at warn and still reports it to the call", async () => {
    const refused = new TelephonyError("twilio", "rejected", "twilio: HTTP 400: Invalid To number", 400);
    const { control, entries } = controlWith(failingCarrier(refused));
    await expect(control.transfer("+14155550199")).rejects.toBe(refused);
    expect(entries()).toEqual([
      expect.objectContaining({
        level: 40,
        msg: "the carrier could not transfer the call",
        status: 400,
        callId: "call-1",
      }),
    ]);
  });
});
