import { randomBytes } from "node:crypto";
import { CallLogPage, type CallLogSummary, KnowledgeDocument, UploadDocumentsResponse } from "@parley/contract";
import { startTwilioDouble, type TwilioDouble } from "@parley/engine/testing/telephony/twilio-double";
import { z } from "zod";
import { keylessAssistant } from "./assistant-fields.ts";
import type { Api } from "./cluster-callers.ts";
import { type LoopbackServer, type ReceivedRequest, startReceiver } from "./loopback.ts";
import { multipartBody } from "./sample-documents.ts";
import { type ScriptedLlm, startScriptedLlm } from "./scripted-llm.ts";
import { ADMIN, createAssistantOn, type Reply, signInAdmin } from "./server-process.ts";
import { until } from "./until.ts";

/**
 * What the cluster tests' calls need around the servers: the scripted model, the Twilio double
 * (the account behind the imported number), a receiver for call.ended webhooks, and a workspace
 * set up through the API — an assistant that greets at once on local providers, its Twilio number
 * and its SIP trunk number (admitting the proxy's address).
 */

/**
 * Short lines: the local voice (eSpeak in WebAssembly) synthesises on the node's main thread, and
 * fifty greetings at once on two cores are what the nodes spend their time on.
 */
export const GREETING = "Hello, cluster desk.";
export const REPLY = "Sure, one moment.";
export const TWILIO_NUMBER = "+14155550100";
export const SIP_NUMBER = "+14155550200";

/** The environment every node of the tests gets (admin bootstrap, local doubles reachable). */
export const NODE_ENV = {
  PARLEY_ADMIN_EMAIL: ADMIN.email,
  PARLEY_ADMIN_PASSWORD: ADMIN.password,
  PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
  LOG_LEVEL: "info",
  NODE_ENV: "production",
  // Three nodes, HAProxy, Kamailio and fifty callers share two cores: the nodes' event loops lag
  // past admission control's bar by design, and these tests are about where calls go and how they
  // end, not about refusing them (test/admission*.test.ts and bench/admission.bench.ts are).
  ADMISSION_CONTROL: "off",
};

export interface CallDoubles {
  llm: ScriptedLlm;
  twilio: TwilioDouble;
  twilioSid: string;
  twilioToken: string;
  hooks: LoopbackServer & { received: ReceivedRequest[] };
  close(): Promise<void>;
}

export async function startCallDoubles(): Promise<CallDoubles> {
  const llm = await startScriptedLlm(() => ({ text: REPLY }));
  const twilioSid = `AC${randomBytes(16).toString("hex")}`;
  const twilioToken = randomBytes(16).toString("hex");
  const twilio = await startTwilioDouble({
    accounts: [{ sid: twilioSid, token: twilioToken, numbers: [TWILIO_NUMBER, "+14155550101"] }],
  });
  const hooks = await startReceiver((_request, res) => res.writeHead(200).end("ok"));
  return {
    llm,
    twilio,
    twilioSid,
    twilioToken,
    hooks,
    async close() {
      await Promise.allSettled([llm.close(), twilio.close(), hooks.close()]);
    },
  };
}

/**
 * JSON requests through `base` with a token. A proxy's own refusal (HAProxy's HTML 503 when it sees
 * no node up) is kept as text, so a failing test shows it.
 */
export function clusterClient(base: string, token: string): Api {
  return async (method, url, body) => {
    const res = await fetch(`${base}/api/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: the proxy answered, not Parley.
    }
    return { status: res.status, body: parsed };
  };
}

export function expectOk(reply: Reply, what: string): unknown {
  if (reply.status >= 300) throw new Error(`${what} failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

export interface CallWorkspace {
  api: Api;
  token: string;
  workspaceId: string;
  agentId: string;
  /** The call.ended endpoint's id. */
  webhookId: string;
  /** The Twilio number's id (it can place outbound calls too). */
  twilioNumberId: string;
}

/** Signs in through `base` and sets the workspace up for the calls (see the file's comment). */
export async function prepareCallWorkspace(base: string, doubles: CallDoubles): Promise<CallWorkspace> {
  const token = await until(
    () => signInAdmin(base).catch(() => null),
    (t) => t !== null,
    "the administrator's sign-in",
    120_000,
  );
  if (!token) throw new Error("no sign-in");
  const api = clusterClient(base, token);
  const list = z
    .array(z.object({ id: z.string(), is_current: z.boolean() }))
    .parse(expectOk(await api("GET", "/workspaces"), "listing workspaces"));
  const workspace = list.find((w) => w.is_current) ?? list[0];
  if (!workspace) throw new Error("no workspace");
  expectOk(await api("PATCH", `/workspaces/${workspace.id}`, { concurrency_limit: 500 }), "raising the limit");
  expectOk(
    await api("PUT", "/integrations/twilio", {
      credentials: { account_sid: doubles.twilioSid, auth_token: doubles.twilioToken, base_url: doubles.twilio.origin },
    }),
    "saving the Twilio integration",
  );
  const agentId = await createAssistantOn(api, {
    name: "Cluster desk",
    first_message: GREETING,
    first_speaker: "assistant",
    ...keylessAssistant(doubles.llm.baseUrl),
    // The callers stay quiet between turns for up to a minute or two: no silence prompt ends them.
    timeout_seconds: 600,
    max_call_duration: 3600,
  });
  const twilioNumber = z.object({ id: z.string() }).parse(
    expectOk(
      await api("POST", "/phone-numbers", {
        number: TWILIO_NUMBER,
        provider: "twilio",
        agent_id: agentId,
        outbound_agent_id: agentId,
      }),
      "adding the Twilio number",
    ),
  );
  expectOk(
    await api("POST", "/phone-numbers", {
      number: SIP_NUMBER,
      provider: "sip_trunk",
      agent_id: agentId,
      sip_trunk: { sip_host: "127.0.0.1:5999", transport: "udp", register: false, allowed_ips: ["127.0.0.1"] },
    }),
    "adding the SIP trunk number",
  );
  const hook = z.object({ id: z.string() }).parse(
    expectOk(
      await api("POST", "/webhooks", {
        url: `${doubles.hooks.origin}/hooks`,
        events: ["call.ended", "document.ready"],
      }),
      "adding the webhook",
    ),
  );
  return { api, token, workspaceId: workspace.id, agentId, webhookId: hook.id, twilioNumberId: twilioNumber.id };
}

/** Every call log of the workspace (all pages). */
export async function allCallLogs(api: Api): Promise<CallLogSummary[]> {
  const logs: CallLogSummary[] = [];
  for (let page = 1; ; page += 1) {
    const body = CallLogPage.parse(expectOk(await api("GET", `/call-logs?page=${page}&items_per_page=100`), "logs"));
    logs.push(...body.data);
    if (page >= body.pages) return logs;
  }
}

export const closed = (log: CallLogSummary) => log.status === "completed" || log.status === "failed";

/** The deliveries of `event` the receiver got: the call's id (call.ended) or the document's, and the delivery's id. */
export function deliveries(
  hooks: CallDoubles["hooks"],
  event: "call.ended" | "document.ready",
): { subject: string; deliveryId: string }[] {
  return hooks.received
    .filter((r) => r.headers["x-parley-event"] === event)
    .map((r) => {
      const body = JSON.parse(r.body) as { data?: { call?: { id?: string }; document_id?: string } };
      return {
        subject: String(body.data?.call?.id ?? body.data?.document_id ?? ""),
        deliveryId: String(r.headers["x-parley-delivery"] ?? ""),
      };
    });
}

/** Percentiles and max of a list of numbers (for the figures the tests print). */
export function spread(values: number[]): string {
  if (values.length === 0) return "none";
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return `p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${Math.round(sorted.at(-1) ?? 0)} ms`;
}

/** Uploads a text file to the knowledge base through `base`; returns the new document's id. */
export async function uploadDocument(base: string, token: string, name: string, text: string): Promise<string> {
  const { payload, headers } = multipartBody([{ name, data: Buffer.from(text), type: "text/plain" }]);
  const res = await fetch(`${base}/api/v1/documents/upload`, {
    method: "POST",
    headers: { ...headers, authorization: `Bearer ${token}` },
    body: payload,
  });
  const body: unknown = await res.json();
  if (res.status >= 300) throw new Error(`upload failed: ${res.status} ${JSON.stringify(body)}`);
  const id = UploadDocumentsResponse.parse(body).documents[0]?.id;
  if (!id) throw new Error("the upload made no document");
  return id;
}

/** The documents' current states. */
export async function documentsOf(api: Api, ids: string[]): Promise<KnowledgeDocument[]> {
  return Promise.all(
    ids.map(async (id) => KnowledgeDocument.parse(expectOk(await api("GET", `/documents/${id}`), id))),
  );
}

/** A text of `paragraphs` paragraphs about opening hours, different for each `seed`. */
export function longText(seed: string, paragraphs: number): string {
  return Array.from(
    { length: paragraphs },
    (_, i) =>
      `Section ${i} of ${seed}. The clinic at branch ${seed}-${i} opens at eight on weekdays and closes at seven, except on public holidays. Parking is free after six in the evening for patients of branch ${seed}-${i}.`,
  ).join("\n\n");
}
