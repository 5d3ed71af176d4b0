import { RegisterClient } from "@parley/sip";
import type { AppContext } from "../../context.ts";
import { decryptSecrets, type PhoneNumberRecord } from "../phone-numbers/service.ts";
import { addressesOf, trunkHostPort } from "./allowed-peers.ts";
import { type SipRuntime, sipRuntimeOf } from "./sip-runtime.ts";

/** Seconds Parley asks a carrier to keep its registration; refreshed at 80 %. */
const TRUNK_EXPIRES = 300;

interface TrunkRegistration {
  client: RegisterClient;
  /** The settings it was started with, to notice a change. */
  key: string;
}

// The running registrations of each runtime, by phone number id.
const registrations = new WeakMap<SipRuntime, Map<string, TrunkRegistration>>();

function registrationsOf(runtime: SipRuntime): Map<string, TrunkRegistration> {
  let map = registrations.get(runtime);
  if (!map) {
    map = new Map();
    registrations.set(runtime, map);
    runtime.stoppers.push(async () => {
      await Promise.all([...(map?.values() ?? [])].map((r) => r.client.stop()));
      map?.clear();
    });
  }
  return map;
}

/** What a failed REGISTER means, in the words an operator searches the log for. */
function registrationFailure(status: number): string {
  // 408 is the stack's own answer when the carrier never replied (Timer F, 32 s per attempt).
  if (status === 408) return "the SIP trunk did not answer Parley's registration (timed out)";
  if (status === 401 || status === 403 || status === 407)
    return "the SIP trunk refused Parley's registration credentials";
  return "the SIP trunk refused Parley's registration";
}

/** How often the trunk numbers are read again to start, change or stop their registrations. */
const RECONCILE_MS = 60_000;

/** Every trunk number of every workspace (the phone-numbers service's listing). */
export type TrunkLister = () => Promise<PhoneNumberRecord[]>;

/**
 * Starts the registry of trunk registrations with the runtime (they stop, unregistering, with it).
 * With a lister, the trunk numbers are read at start and every minute, so a number created,
 * changed or deleted through the API (on any process) is registered or unregistered without the
 * phone-numbers module having to call this one.
 */
export function registerTrunks(runtime: SipRuntime, listTrunks: TrunkLister | null): void {
  registrationsOf(runtime);
  if (!listTrunks) return;
  const { log } = runtime.calls;
  const run = () =>
    void listTrunks()
      .then((records) => reconcileTrunks(runtime, records))
      .catch((error: unknown) => log.warn({ err: error }, "could not reconcile SIP trunk registrations"));
  run();
  const timer = setInterval(run, RECONCILE_MS);
  timer.unref();
  runtime.stoppers.unshift(() => clearInterval(timer));
}

/** Brings the running registrations in line with these trunk numbers (others are unregistered). */
export async function reconcileTrunks(runtime: SipRuntime, records: readonly PhoneNumberRecord[]): Promise<void> {
  const { ctx } = runtime;
  const wanted = new Set(records.map((r) => r.id));
  for (const id of registrationsOf(runtime).keys()) if (!wanted.has(id)) await syncSipTrunk(ctx, id, null);
  for (const record of records) await syncSipTrunk(ctx, record.id, record);
}

/**
 * Keeps a trunk number's carrier registration in line with its settings: started (REGISTER with
 * digest, refreshed before expiry, retried after a failure) when `register` is on, stopped with
 * Expires: 0 when it is turned off or the number is deleted (`record` null). Resolves with the
 * first REGISTER's status, or null when nothing is registered.
 */
export async function syncSipTrunk(
  ctx: AppContext,
  numberId: string,
  record: PhoneNumberRecord | null,
): Promise<number | null> {
  const runtime = sipRuntimeOf(ctx);
  if (!runtime) return null;
  const running = registrationsOf(runtime);
  const settings = record?.provider === "sip_trunk" ? record.sipTrunk : null;
  const password = record ? decryptSecrets(ctx, record).sipPassword : undefined;
  const key = settings ? JSON.stringify([settings.sip_host, settings.transport, settings.username, password]) : "";
  const current = running.get(numberId);
  if (current && current.key === key && settings?.register) return current.client.registeredFor > 0 ? 200 : null;
  if (current) {
    running.delete(numberId);
    await current.client.stop();
  }
  if (!settings?.register || !settings.username || !password) return null;
  const { host, port } = trunkHostPort(settings);
  // Who the operator looks for when a trunk will not register: its number, workspace and carrier server.
  const fields = {
    numberId,
    workspaceId: record?.workspaceId,
    provider: "sip_trunk",
    registrar: `${host}:${port}`,
    transport: settings.transport,
  };
  const [address] = await addressesOf(host);
  if (!address) {
    runtime.calls.log.warn(fields, "the SIP trunk's host name does not resolve: Parley cannot register to it");
    return null;
  }
  const client = new RegisterClient(runtime.ua.stack, {
    registrar: { transport: settings.transport, address, port },
    domain: host,
    username: settings.username,
    password,
    expires: TRUNK_EXPIRES,
  });
  // Each failure is retried (RegisterClient, every 30 s): a warning each time, and a line when it recovers.
  let failing = false;
  client.on("failed", (status, reason) => {
    failing = true;
    runtime.calls.log.warn({ ...fields, status, reason }, registrationFailure(status));
  });
  client.on("registered", (expires) => {
    if (failing) runtime.calls.log.info({ ...fields, expires }, "the SIP trunk accepted Parley's registration again");
    failing = false;
  });
  running.set(numberId, { client, key });
  return (await client.start()).status;
}
