import { type MediaStreamProvider, routedSocketPath } from "@parley/contract";
import type { WebhookUrls } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import { webhookUrlsFor } from "../phone-numbers/service.ts";

/**
 * The vendor's URLs for one call, its media stream's path ending with the routing key of the node
 * holding the call's room (`…/stream/node-2`), so the load balancer in front (deploy/) sends the
 * stream where the call runs. Path, not query: a carrier's stream markup may refuse a query string. Without
 * NODE_ID (one process) the URLs are the plain ones.
 */
export async function callUrlsFor(
  ctx: AppContext,
  provider: MediaStreamProvider,
  room?: { workspaceId: string; name: string },
): Promise<WebhookUrls> {
  const urls = webhookUrlsFor(ctx.config.publicUrl, provider);
  if (!ctx.node.routingKey) return urls;
  const where = room?.name ? await ctx.calls.rooms.locate(room.workspaceId, room.name) : undefined;
  const node = where?.held === "elsewhere" ? (where.row.nodeId ?? ctx.node.routingKey) : ctx.node.routingKey;
  return { ...urls, streamUrl: routedSocketPath(urls.streamUrl, node) };
}
