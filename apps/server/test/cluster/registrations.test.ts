import { describe, expect, it } from "vitest";
import { z } from "zod";
import { useCluster } from "../support/cluster-fixture.ts";
import { expectOk } from "../support/cluster-world.ts";
import { client } from "../support/server-process.ts";
import { eventually, startBaresip } from "../support/sip-peers.ts";

/**
 * Issue 28 item 1: a phone registers through Kamailio (to whichever node Kamailio picks) and every
 * node can call it: each node sends its INVITE to Kamailio, which relays it to the phone's Contact,
 * and the phone answers. The extension's details name Kamailio as the registrar.
 */
const world = useCluster("parley_cluster_reg");

const Created = z.object({
  phone_number: z.object({ id: z.string() }),
  sip: z.object({ password: z.string(), registrar: z.string() }),
});
const CallLog = z.object({ status: z.string(), channel: z.string(), direction: z.string() });

describe("phones registered through Kamailio", () => {
  it("are told to register to Kamailio, and answer a call placed by every node", { timeout: 600_000 }, async () => {
    const { api, agentId, token } = world.workspace;
    const sip = world.cluster.sip;
    if (!sip) throw new Error("the cluster runs without SIP");
    const phoneExt = Created.parse(
      expectOk(
        await api("POST", "/phone-numbers/extensions", { ext: "4101", domain: "cluster.test" }),
        "extension 4101",
      ),
    );
    expect(phoneExt.sip.registrar).toBe(`${sip.host}:${sip.port}`);
    const fromExt = Created.parse(
      expectOk(
        await api("POST", "/phone-numbers/extensions", { ext: "4102", domain: "cluster.test" }),
        "extension 4102",
      ),
    );
    expectOk(
      await api("PATCH", `/phone-numbers/${fromExt.phone_number.id}`, {
        agent_id: agentId,
        outbound_agent_id: agentId,
      }),
      "the calling extension's assistant",
    );
    const phone = await startBaresip({
      user: "4101",
      domain: "cluster.test",
      password: phoneExt.sip.password,
      registrar: phoneExt.sip.registrar,
      autoAnswer: true,
    });
    try {
      await eventually(
        async () => {
          const reply = await api("POST", "/phone-numbers/extensions/status", {
            extension: "4101",
            domain: "cluster.test",
          });
          return z.object({ status: z.string() }).parse(reply.body).status === "REGED";
        },
        "the phone to register through Kamailio",
        120_000,
      );
      for (const node of world.cluster.nodes) {
        // Straight to the node, so each one is shown to reach the phone.
        const onNode = client(node.url, token);
        const placed = z.object({ call_id: z.string() }).parse(
          expectOk(
            await onNode("POST", "/make_outbound_call", {
              caller_uuid: fromExt.phone_number.id,
              destination_number: "4101",
            }),
            `a call from ${node.id}`,
          ),
        );
        const answered = await eventually(
          async () => {
            const log = CallLog.parse((await api("GET", `/call-logs/${placed.call_id}`)).body);
            return log.status === "in_progress" ? log : null;
          },
          () => `the phone to answer ${node.id}'s call (${phone.output().slice(-600)})`,
          120_000,
        );
        expect(answered).toMatchObject({ channel: "sip", direction: "outbound" });
        const rooms = z
          .object({
            rooms: z.array(
              z.object({
                name: z.string(),
                call_id: z.string(),
                participants: z.array(z.object({ identity: z.string(), kind: z.string() })),
              }),
            ),
          })
          .parse((await api("GET", "/agents/room/workspace_rooms")).body).rooms;
        const room = rooms.find((r) => r.call_id === placed.call_id);
        const caller = room?.participants.find((p) => p.kind === "caller");
        expectOk(
          await api("POST", `/agents/room/${room?.name}/remove_participant?participant_identity=${caller?.identity}`),
          `ending ${node.id}'s call`,
        );
        await eventually(
          async () => CallLog.parse((await api("GET", `/call-logs/${placed.call_id}`)).body).status === "completed",
          `${node.id}'s call to be logged completed`,
          60_000,
        );
      }
    } finally {
      await phone.stop();
    }
  });
});
