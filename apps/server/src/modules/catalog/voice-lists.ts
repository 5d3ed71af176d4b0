import { createHash } from "node:crypto";
import {
  CloneService,
  type ModelOption,
  TTS_CATALOG,
  type TtsProviderId,
  type VoiceClone,
  type VoiceOption,
  type VoicesResponse,
} from "@parley/contract";
import type { NetworkDeps } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { resolveCredentials } from "../integrations/credentials.ts";
import { listClones } from "../voice-lab/service.ts";

/** Where live voice and model lists come from (the engine's vendor catalog; a fake in tests). */
export interface LiveCatalogSource {
  voices(
    provider: TtsProviderId,
    credentials: Record<string, string>,
    net: NetworkDeps,
  ): Promise<{ id: string; name: string }[]>;
  models(provider: TtsProviderId, credentials: Record<string, string>, net: NetworkDeps): Promise<ModelOption[]>;
}

/** A vendor's list changes rarely; ten minutes spares it a request on every editor visit. */
export const LIVE_LIST_TTL_MS = 10 * 60 * 1000;
/** A failure is remembered briefly so an unreachable vendor does not stall every page load. */
const FAILURE_TTL_MS = 60 * 1000;

interface LiveList {
  voices: { id: string; name: string }[];
  models: ModelOption[];
}
type Cached = { expires: number } & ({ ok: true; list: LiveList } | { ok: false; error: string });

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * GET /voices/{provider}: the built-in voices, or — when the workspace (or the server) has a key
 * for the provider — the vendor's live list, cached per workspace, provider and key. A failing
 * vendor falls back to the built-in list with the failure text. The workspace's voice clones are
 * merged in for the vendors that clone (spec §9).
 */
export class VoiceLists {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly ctx: AppContext,
    private readonly source: LiveCatalogSource,
  ) {}

  async forWorkspace(tenant: TenantScope, provider: TtsProviderId): Promise<VoicesResponse> {
    const entry = TTS_CATALOG[provider];
    let response: VoicesResponse = {
      voices: entry.voices.map((v) => ({ ...v, isCustom: false })),
      models: entry.models,
      source: "builtin",
    };
    const credentials = entry.needsKey ? await resolveCredentials(this.ctx, tenant.workspaceId, provider) : null;
    if (credentials) {
      const live = await this.live(tenant.workspaceId, provider, credentials);
      if (live.ok && live.list.voices.length > 0) {
        const models = live.list.models.length > 0 ? live.list.models : entry.models;
        response = { voices: live.list.voices.map((v) => ({ ...v, isCustom: false })), models, source: "live" };
      } else if (!live.ok) {
        response = { ...response, error: live.error };
      }
    }
    const cloneService = CloneService.safeParse(provider);
    if (entry.supportsClones && cloneService.success) {
      const clones = await listClones(this.ctx.db, tenant, cloneService.data);
      response = { ...response, voices: mergeClones(response.voices, clones) };
    }
    return response;
  }

  private async live(workspaceId: string, provider: TtsProviderId, credentials: Record<string, string>) {
    const fingerprint = createHash("sha256").update(JSON.stringify(credentials)).digest("hex").slice(0, 16);
    const key = `${workspaceId}:${provider}:${fingerprint}`;
    const now = this.ctx.now().getTime();
    const hit = this.cache.get(key);
    if (hit && hit.expires > now) return hit;
    let fresh: Cached;
    try {
      const [voices, models] = await Promise.all([
        this.source.voices(provider, credentials, this.ctx.network),
        // Models are a nicety: a vendor without a model endpoint still yields its voices.
        this.source.models(provider, credentials, this.ctx.network).catch(() => []),
      ]);
      fresh = { ok: true, list: { voices, models }, expires: now + LIVE_LIST_TTL_MS };
    } catch (error) {
      fresh = { ok: false, error: messageOf(error), expires: now + FAILURE_TTL_MS };
    }
    this.prune(now);
    this.cache.set(key, fresh);
    return fresh;
  }

  /** Drops expired entries once the cache grows, so it stays bounded by the workspaces in use. */
  private prune(now: number) {
    if (this.cache.size < 500) return;
    for (const [key, entry] of this.cache) if (entry.expires <= now) this.cache.delete(key);
  }
}

/** Clones first, flagged custom; a clone the vendor also lists appears once. */
function mergeClones(voices: VoiceOption[], clones: VoiceClone[]): VoiceOption[] {
  const cloneIds = new Set(clones.map((c) => c.service_voice_id));
  return [
    ...clones.map((c) => ({ id: c.service_voice_id, name: c.name, isCustom: true })),
    ...voices.filter((v) => !cloneIds.has(v.id)),
  ];
}
