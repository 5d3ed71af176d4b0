// What the socket-calls and cluster benches do to a fresh server through its API before calls: sign
// the administrator in, raise the workspace's limit, point Twilio at the local double and add its
// number to an assistant on the instant stand-ins.

/** One API request; throws with the answer when it is not 2xx. */
export async function request(base: string, token: string | null, method: string, url: string, body?: unknown) {
  const res = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

const field = (value: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((at, key) => (typeof at === "object" && at !== null ? Reflect.get(at, key) : undefined), value);

export interface BenchWorkspace {
  /** The administrator who signs in (the server was started with them). */
  admin: { email: string; password: string };
  /** The assistant's name, as the bench's logs should show it. */
  assistantName: string;
  /** The Twilio double's number the assistant answers. */
  number: string;
  /** The scripted model's OpenAI-compatible base URL. */
  llmUrl: string;
  twilio: { sid: string; token: string; origin: string };
}

/**
 * The administrator's workspace made ready: limit raised, the Twilio double's number, the
 * assistant. Its "local" voice and recogniser are the instant stand-ins the bench's servers preload
 * (cluster-node-preload.ts). Returns the administrator's token and the assistant's id.
 */
export async function prepareBenchWorkspace(base: string, setup: BenchWorkspace) {
  const login = await fetch(`${base}/api/v1/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: setup.admin.email, password: setup.admin.password }),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const token = String(field(await login.json(), "access_token"));
  const workspaces = await request(base, token, "GET", "/workspaces");
  const rows = (Array.isArray(workspaces) ? workspaces : field(workspaces, "data")) as {
    id: string;
    is_current: boolean;
  }[];
  const workspace = rows.find((w) => w.is_current) ?? rows[0];
  if (!workspace) throw new Error("no workspace");
  await request(base, token, "PATCH", `/workspaces/${workspace.id}`, { concurrency_limit: 1000 });
  await request(base, token, "PUT", "/integrations/twilio", {
    credentials: { account_sid: setup.twilio.sid, auth_token: setup.twilio.token, base_url: setup.twilio.origin },
  });
  const agent = await request(base, token, "POST", "/agents", {
    name: setup.assistantName,
    first_message: "",
    first_speaker: "user",
    max_call_duration: 3600,
    timeout_seconds: 600,
    llm_provider: "openai-compatible",
    llm_provider_config: { model: "scripted", base_url: setup.llmUrl },
    stt_provider: "local",
    stt_provider_config: {},
    tts_provider: "local",
    tts_provider_config: { model: "espeak-ng", voice: "en-us" },
  });
  const agentId = String(field(agent, "id"));
  await request(base, token, "POST", "/phone-numbers", { number: setup.number, provider: "twilio", agent_id: agentId });
  return { token, agentId };
}
