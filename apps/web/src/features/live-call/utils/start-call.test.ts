import { describe, expect, it, vi } from "vitest";
import { CALL_ERRORS, type CallStartDeps, prepareCall } from "./start-call.ts";

function fakeDeps(overrides: Partial<CallStartDeps> = {}) {
  const stop = vi.fn();
  const microphone = { getTracks: () => [{ stop }] } as unknown as MediaStream;
  const order: string[] = [];
  const deps: CallStartDeps = {
    openMicrophone: vi.fn(async () => {
      order.push("microphone");
      return microphone;
    }),
    startCall: vi.fn(async () => {
      order.push("call");
      return { room: { name: "call-abc" }, call_id: "c1" };
    }),
    roomToken: vi.fn(async () => {
      order.push("token");
      return { accessToken: "tok", result: "success", message: "ok", url: "/api/v1/realtime" };
    }),
    ...overrides,
  };
  return { deps, order, stop, microphone };
}

describe("starting a live call", () => {
  it("checks the microphone, requests the call, then fetches the room token, in that order", async () => {
    const { deps, order, microphone } = fakeDeps();
    const call = await prepareCall("a1", deps, { identity: "user-1" });
    expect(order).toEqual(["microphone", "call", "token"]);
    expect(deps.roomToken).toHaveBeenCalledWith("call-abc", "user-1", "User");
    expect(call).toMatchObject({ microphone, room: { name: "call-abc" }, accessToken: "tok", callId: "c1" });
  });

  it("requires an assistant id before touching the microphone", async () => {
    const { deps } = fakeDeps();
    await expect(prepareCall("", deps)).rejects.toThrow(CALL_ERRORS.assistantRequired);
    expect(deps.openMicrophone).not.toHaveBeenCalled();
  });

  it("fails without room information and releases the microphone", async () => {
    const { deps, stop } = fakeDeps({ startCall: async () => ({}) });
    await expect(prepareCall("a1", deps)).rejects.toThrow(CALL_ERRORS.noRoom);
    expect(stop).toHaveBeenCalled();
  });

  it("fails when the token response has no access token", async () => {
    const { deps } = fakeDeps({ roomToken: async () => ({ result: "success" }) });
    await expect(prepareCall("a1", deps)).rejects.toThrow(CALL_ERRORS.noToken);
  });

  it("uses an error result's own message", async () => {
    const { deps } = fakeDeps({ roomToken: async () => ({ result: "error", message: "Room is closed" }) });
    await expect(prepareCall("a1", deps)).rejects.toThrow("Room is closed");
  });
});
