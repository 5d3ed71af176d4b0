import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../context.ts";

const CHECK_EVERY_MS = 250;
const REPORT_EVERY_MS = 30_000;
/**
 * Behind balancers (NODE_ID set) a node stays up, unready, at least this long even with no call to
 * wait for: HAProxy checks every second, and a node that closed before its next check would answer
 * the requests still sent to it in that second with 503 (a POST is not retried elsewhere).
 */
export const UNREADY_GRACE_MS = 3_000;

/**
 * Drains this node (SIGTERM): it stops taking new calls and jobs (ctx.node's listeners) and waits
 * until its running calls have ended (and, behind balancers, UNREADY_GRACE_MS has passed) or
 * `timeoutMs` has, whichever comes first. Resolves
 * with the number of calls still running then, which the app's close ends as `server_shutdown`.
 */
export async function drainNode(ctx: AppContext, log: FastifyBaseLogger, timeoutMs: number): Promise<number> {
  const running = () => ctx.calls.rooms.all().length;
  const started = Date.now();
  log.info(
    { node: ctx.node.id, activeCalls: running(), drainTimeoutMs: timeoutMs },
    "draining: taking no new calls or jobs; running calls may finish",
  );
  const handedBack = ctx.node.drain();
  let reported = started;
  const grace = ctx.node.routingKey ? Math.min(UNREADY_GRACE_MS, timeoutMs) : 0;
  const waiting = () => running() > 0 || Date.now() - started < grace;
  while (waiting() && Date.now() - started < timeoutMs) {
    await new Promise((resolve) => setTimeout(resolve, CHECK_EVERY_MS));
    if (Date.now() - reported >= REPORT_EVERY_MS) {
      reported = Date.now();
      log.info({ node: ctx.node.id, activeCalls: running() }, "draining: calls still running");
    }
  }
  await handedBack;
  const left = running();
  if (left > 0) {
    log.warn(
      { node: ctx.node.id, activeCalls: left, drainTimeoutMs: timeoutMs },
      "drain timeout reached: ending the calls still running",
    );
  } else {
    log.info({ node: ctx.node.id, drainedInMs: Date.now() - started }, "drained: no call is running");
  }
  return left;
}
