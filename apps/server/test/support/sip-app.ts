import { getCallLog } from "../../src/modules/call-logs/queries.ts";
import { insertPhoneNumber } from "../../src/modules/phone-numbers/service.ts";
import { call, createTestApp, signedInUser, type TestApp } from "../harness.ts";
import { createAssistant } from "./calls.ts";
import type { ScriptedLlm } from "./scripted-llm.ts";
import { eventually, rtpWindow } from "./sip-peers.ts";

export interface SipApp {
  t: TestApp;
  token: string;
  workspaceId: string;
  /** The assistant that answers the file's calls. */
  agentId: string;
  /** The id of the workspace's newest call log, once there is one. */
  newestCall(): Promise<string>;
  /** The call log `id` once it is closed (completed or failed). */
  closedLog(id: string): ReturnType<typeof getCallLog>;
  /**
   * A trunk number answered by the assistant, whose carrier (where transfers are bridged to) is
   * 127.0.0.1:`carrierPort`; its INVITEs come from 127.0.0.1 and need no credentials.
   */
  inboundTrunkNumber(number: string, carrierPort: number): ReturnType<typeof insertPhoneNumber>;
}

/**
 * A test app running Parley's SIP side on a free port of 127.0.0.1 (RTP in a port window of the
 * file's own), a signed-in user, and their assistant on the scripted model with `assistant`'s fields.
 */
export async function startSipApp(llm: ScriptedLlm, assistant: Record<string, unknown>): Promise<SipApp> {
  const t = await createTestApp({
    SIP_PORT: "0",
    SIP_HOST: "127.0.0.1",
    PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
    ...rtpWindow(),
  });
  const { token, workspaceId } = await signedInUser(t);
  const agentId = await createAssistant(t, token, {
    llm_provider_config: { model: "scripted", base_url: llm.baseUrl },
    ...assistant,
  });
  return {
    t,
    token,
    workspaceId,
    agentId,
    newestCall: () =>
      eventually(async () => {
        const res = await call(t, "GET", "/api/v1/call-logs", { token });
        return res.json<{ data?: { id: string }[] }>().data?.[0]?.id ?? null;
      }, "a call log"),
    inboundTrunkNumber: (number, carrierPort) =>
      insertPhoneNumber(
        t.ctx.db,
        { workspaceId },
        {
          number,
          provider: "sip_trunk",
          agentId,
          sipTrunk: {
            sip_host: `127.0.0.1:${carrierPort}`,
            transport: "udp",
            username: "",
            register: false,
            allowed_ips: ["127.0.0.1"],
          },
        },
      ),
    closedLog: (id) =>
      eventually(async () => {
        const log = await getCallLog(t.ctx.db, { workspaceId }, id);
        return log.status === "completed" || log.status === "failed" ? log : null;
      }, "the call log to close"),
  };
}
