import type { AddressInfo } from "node:net";
import { loadTelephony, type TelephonyAdapter } from "@parley/engine";
import { getCallLog } from "../../src/modules/call-logs/queries.ts";
import { insertPhoneNumber, webhookUrlsFor } from "../../src/modules/phone-numbers/service.ts";
import { accountOf } from "../../src/modules/telephony/account.ts";
import { call, signedInUser, type TestApp } from "../harness.ts";
import { keylessAssistant } from "./assistant-fields.ts";
import { createAssistant } from "./calls.ts";
import { startListeningApp } from "./realtime-calls.ts";
import { type ChatRequestBody, lastUserText, type ScriptedReply, startScriptedLlm } from "./scripted-llm.ts";

/**
 * The server side of a telephony bridge test, the same for every vendor: a listening app whose
 * PUBLIC_URL is its real address (the vendor double calls its webhooks there), a workspace with the
 * vendor's credentials pointed at the double, an assistant on local providers with a scripted model,
 * and one of the double's numbers registered and configured.
 */

export const TRANSFER_NUMBER = "+14155550199";
export const FIRST_MESSAGE =
  "Hello from Parley. I can help with bookings, billing, opening hours and a great deal more, so please tell me what you need today.";

/** The model: keys mapped to requests (DTMF in) drive the built-in tools (transfer, DTMF out). */
export function bridgeScript(request: ChatRequestBody): ScriptedReply {
  if (request.messages.at(-1)?.role === "tool") return { text: "Done." };
  const said = lastUserText(request);
  if (/billing/i.test(said)) return { toolCall: { name: "transfer_call", arguments: '{"destination":"Billing"}' } };
  if (/menu/i.test(said)) return { toolCall: { name: "send_dtmf", arguments: '{"digits":"1"}' } };
  return { text: "Happy to help with that." };
}

export interface BridgeWorld {
  t: TestApp;
  token: string;
  workspaceId: string;
  agentId: string;
  phoneNumberId: string;
  adapter: TelephonyAdapter;
  close(): Promise<void>;
}

export async function startBridgeWorld(options: {
  provider: "twilio" | "telnyx" | "plivo" | "vonage";
  credentials: (origin: string) => Record<string, string>;
  doubleOrigin: string;
  number: string;
  assistant?: Record<string, unknown>;
}): Promise<BridgeWorld> {
  const llm = await startScriptedLlm(bridgeScript);
  const t = await startListeningApp();
  t.config.publicUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const user = await signedInUser(t);
  const saved = await call(t, "PUT", `/api/v1/integrations/${options.provider}`, {
    token: user.token,
    body: { credentials: options.credentials(options.doubleOrigin) },
  });
  if (saved.statusCode !== 200) throw new Error(`saving the integration failed: ${saved.statusCode} ${saved.body}`);
  const agentId = await createAssistant(t, user.token, {
    first_message: FIRST_MESSAGE,
    ...keylessAssistant(llm.baseUrl),
    call_transfer: true,
    transfer_config: [{ name: "Billing", number: TRANSFER_NUMBER, transfer_message: "Transferring you now." }],
    dtmf_enabled: true,
    dtmf_mapping: { "5": "I have a billing question", "7": "Open the phone menu" },
    ...options.assistant,
  });
  const adapter = await loadTelephony(options.provider);
  if (!adapter) throw new Error(`${options.provider} has no telephony adapter`);
  const tenant = { workspaceId: user.workspaceId };
  const account = await accountOf(t.ctx, { workspaceId: user.workspaceId, provider: options.provider });
  if (!account) throw new Error("no account for the saved integration");
  const listed = (await adapter.listNumbers(account)).find((n) => n.number === options.number);
  if (!listed) throw new Error(`the double does not list ${options.number}`);
  await adapter.configureNumber(account, listed, webhookUrlsFor(t.config.publicUrl, options.provider));
  const record = await insertPhoneNumber(t.ctx.db, tenant, {
    number: options.number,
    provider: options.provider,
    agentId,
    outboundAgentId: agentId,
    providerNumberId: listed.providerNumberId,
    friendlyName: listed.friendlyName,
  });
  return {
    t,
    token: user.token,
    workspaceId: user.workspaceId,
    agentId,
    phoneNumberId: record.id,
    adapter,
    async close() {
      await t.close();
      await llm.close();
    },
  };
}

/** The call's log once it is closed (the stream ends first). */
export async function finishedLog(world: BridgeWorld, callId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const log = await getCallLog(world.t.ctx.db, { workspaceId: world.workspaceId }, callId);
    if (log.status === "completed" || log.status === "failed") return log;
    if (Date.now() > deadline) throw new Error(`the call log was never closed: ${JSON.stringify(log)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The newest call log of the workspace. */
export async function newestCallId(world: BridgeWorld, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(world.t, "GET", "/api/v1/call-logs", { token: world.token });
    const first = res.json<{ data?: { id: string }[] }>().data?.[0];
    if (first) return first.id;
    if (Date.now() > deadline) throw new Error(`no call log appeared: ${res.body}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until `check` holds, polling. */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
