import { hostname } from "node:os";
import { NODE_HEARTBEAT_MS, type NodeState } from "@parley/contract";
import serverPackage from "../../../package.json" with { type: "json" };
import type { AppContext } from "../../context.ts";
import { forgetOldNodes, type NodeReport, writeNodeReport } from "./service.ts";

/** Where this node listens, read when each heartbeat is written (the ports are known once it listens). */
export interface NodePorts {
  http(): number;
  sip(): number | null;
}

/**
 * Writes this node's row at once, every NODE_HEARTBEAT_MS, as soon as it starts draining, and a
 * last time as `stopped` when it closes. A failed write is logged and the next beat tries again.
 */
export function startNodeHeartbeat(ctx: AppContext, ports: NodePorts): { stop(): Promise<void> } {
  const { node } = ctx;
  const report = (state: NodeState): NodeReport => ({
    id: node.id,
    state,
    activeCalls: ctx.calls.rooms.all().length,
    version: serverPackage.version,
    host: hostname(),
    httpPort: ports.http(),
    sipPort: ports.sip(),
    startedAt: node.startedAt,
  });
  let writing: Promise<void> = Promise.resolve();
  const beat = (state: NodeState = node.state) => {
    writing = writing
      .then(() => writeNodeReport(ctx.db, report(state), ctx.now()))
      .catch((error: unknown) =>
        ctx.calls.log.warn({ err: error, node: node.id }, "could not write this node's heartbeat"),
      );
    return writing;
  };
  void beat();
  void forgetOldNodes(ctx.db, ctx.now()).catch(() => undefined);
  const timer = setInterval(() => void beat(), NODE_HEARTBEAT_MS);
  timer.unref();
  const unsubscribe = node.onDrain(() => beat());
  return {
    async stop() {
      clearInterval(timer);
      unsubscribe();
      await beat("stopped");
    },
  };
}
