import { isIP } from "node:net";
import { WEBHOOK_TEXTS } from "@parley/contract";
import { AllowList, bareHost, blockedReason } from "../../lib/address-policy.ts";
import { AppError } from "../../lib/app-error.ts";

/**
 * Refuses, when an endpoint is saved, a URL whose host is plainly private (an IP literal outside
 * the public internet, or localhost) and not in PARLEY_ALLOWED_PRIVATE_HOSTS, so the mistake shows
 * in the form. Host names are checked where it matters: every delivery connects through
 * ctx.network, which resolves and checks the address it connects to.
 */
export function assertWebhookUrlAllowed(allowedPrivate: readonly string[], raw: string): void {
  const url = new URL(raw);
  const host = bareHost(url.hostname).toLowerCase();
  const allow = new AllowList(allowedPrivate);
  if (allow.allowsHost(host)) return;
  const literal = isIP(host) !== 0;
  const local = host === "localhost" || host.endsWith(".localhost");
  const isPrivate = local || (literal && !allow.allowsAddress(host) && blockedReason(host) !== null);
  if (isPrivate) {
    throw new AppError("validation", WEBHOOK_TEXTS.privateAddress, {}, [
      { field: "url", message: WEBHOOK_TEXTS.privateAddress },
    ]);
  }
}
