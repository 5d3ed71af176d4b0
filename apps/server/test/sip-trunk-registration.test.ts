import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertPhoneNumber } from "../src/modules/phone-numbers/service.ts";
import { sipRuntimeOf } from "../src/modules/sip/sip-runtime.ts";
import { reconcileTrunks, syncSipTrunk } from "../src/modules/sip/trunk-registrations.ts";
import { createTestApp, signedInUser, type TestApp } from "./harness.ts";
import { freeUdpPort, rtpWindow } from "./support/sip-peers.ts";
import { registrarScenario } from "./support/sip-scenarios.ts";
import { runSipp } from "./support/sipp.ts";

let t: TestApp;
let workspaceId: string;

beforeAll(async () => {
  t = await createTestApp({ SIP_PORT: "0", SIP_HOST: "127.0.0.1", ...rtpWindow() });
  workspaceId = (await signedInUser(t)).workspaceId;
});
afterAll(async () => {
  await t.close();
});

describe("SIP trunk registration", () => {
  it("registers to the carrier with digest auth and unregisters when registration is turned off", async () => {
    const port = await freeUdpPort();
    const credentials = { username: "parley-trunk", password: "trunk-secret-1" };
    const carrier = runSipp(registrarScenario(credentials), ["-i", "127.0.0.1", "-p", String(port)], 30);
    try {
      const record = await insertPhoneNumber(
        t.ctx.db,
        { workspaceId },
        {
          number: "+14155550130",
          provider: "sip_trunk",
          sipTrunk: {
            sip_host: `127.0.0.1:${port}`,
            transport: "udp",
            username: credentials.username,
            register: true,
            allowed_ips: [],
          },
          sipPassword: t.ctx.secrets.encrypt(credentials.password),
        },
      );
      const runtime = sipRuntimeOf(t.ctx);
      if (!runtime) throw new Error("SIP is not running");
      expect(await syncSipTrunk(t.ctx, record.id, record)).toBe(200);
      // Settings unchanged: the running registration is kept, nothing is sent.
      await reconcileTrunks(runtime, [record]);
      expect(await syncSipTrunk(t.ctx, record.id, record)).toBe(200);
      // The number is gone from the listing: Parley unregisters (Expires: 0, digest again).
      await reconcileTrunks(runtime, []);
      const result = await carrier.done;
      expect(result.code, result.output.slice(-1500)).toBe(0);
    } finally {
      carrier.stop();
    }
  });
});
