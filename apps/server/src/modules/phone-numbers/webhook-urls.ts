import { API_BASE_PATH, type MediaStreamProvider } from "@parley/contract";
import type { WebhookUrls } from "@parley/engine";

/**
 * Where a vendor reaches Parley for a number's calls: POST voice and status webhooks and the media
 * stream WebSocket under PUBLIC_URL (wss when PUBLIC_URL is https), all below /api/v1/telephony/{provider}.
 */
export function webhookUrlsFor(publicUrl: string, provider: MediaStreamProvider): WebhookUrls {
  const base = `${publicUrl.replace(/\/+$/, "")}${API_BASE_PATH}/telephony/${provider}`;
  return {
    voiceUrl: `${base}/voice`,
    statusUrl: `${base}/status`,
    streamUrl: `${base.replace(/^http/, "ws")}/stream`,
  };
}
