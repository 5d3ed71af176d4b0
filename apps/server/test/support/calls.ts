import { createServer, type Server } from "node:http";
import { call, type TestApp } from "../harness.ts";
import { KEYLESS_PROVIDERS } from "./assistant-fields.ts";
import { listenOnLoopback } from "./loopback.ts";

/** Creates an assistant in the user's workspace; `fields` override the defaults (keyless providers). */
export async function createAssistant(t: TestApp, token: string, fields: Record<string, unknown>): Promise<string> {
  const body = { name: "Front desk", ...KEYLESS_PROVIDERS, ...fields };
  const res = await call(t, "POST", "/api/v1/agents", { token, body });
  if (res.statusCode !== 201) throw new Error(`create assistant failed: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string }>().id;
}

/** POST /agents/{id}/call → the room name and call id. */
export async function startRoom(t: TestApp, token: string, agentId: string) {
  const res = await call(t, "POST", `/api/v1/agents/${agentId}/call`, { token });
  if (res.statusCode !== 201) throw new Error(`start call failed: ${res.statusCode} ${res.body}`);
  const body = res.json<{ room: { name: string }; call_id: string }>();
  return { room: body.room.name, callId: body.call_id };
}

/** GET /agents/room/generate_room_token → the token. */
export async function roomToken(t: TestApp, token: string, room: string, identity = "user-test", name = "Tess") {
  const query = new URLSearchParams({ room_name: room, user_identity: identity, name });
  const res = await call(t, "GET", `/api/v1/agents/room/generate_room_token?${query}`, { token });
  if (res.statusCode !== 200) throw new Error(`room token failed: ${res.statusCode} ${res.body}`);
  return res.json<{ accessToken: string }>().accessToken;
}

/** A function webhook on 127.0.0.1 that answers every call with `body` and records what it got. */
export async function startWebhook(body: unknown): Promise<{ url: string; calls: unknown[]; close(): Promise<void> }> {
  const calls: unknown[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    calls.push(JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}"));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  const { origin, close } = await listenOnLoopback(server);
  return { url: `${origin}/hook`, calls, close };
}
