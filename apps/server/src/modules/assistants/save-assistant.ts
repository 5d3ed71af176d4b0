import { type Assistant, type AssistantFields, CreateAssistantBody, UpdateAssistantBody } from "@parley/contract";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import type { Tenant, TenantScope } from "../../lib/tenant-scope.ts";
import { effectiveLimits } from "../users/limits.ts";
import { resolveLlmConfig, resolveSttConfig, resolveTtsConfig } from "./provider-config.ts";
import { runAssistantSaveChecks } from "./save-checks.ts";
import { countAssistants, insertAssistant, requireAgent, updateAssistantRow } from "./service.ts";

const LooseConfig = z.record(z.string(), z.unknown());
/**
 * The route bodies take provider configs as loose objects: each is completed from the provider's
 * defaults and validated by that provider's own schema (provider-config.ts), which a single static
 * schema cannot do.
 */
const providerConfigs = {
  llm_provider_config: LooseConfig.optional(),
  stt_provider_config: LooseConfig.optional(),
  tts_provider_config: LooseConfig.optional(),
};
export const CreateAssistantRequest = CreateAssistantBody.extend(providerConfigs);
export type CreateAssistantRequest = z.output<typeof CreateAssistantRequest>;
export const UpdateAssistantRequest = UpdateAssistantBody.extend(providerConfigs);
export type UpdateAssistantRequest = z.output<typeof UpdateAssistantRequest>;

export const ASSISTANT_LIMIT_TEXT =
  "You have reached the maximum number of assistants for your plan. Delete an assistant or ask an administrator to raise your limit.";

/** HIPAA: no call audio may be kept, whatever the request says (spec §4). */
function applyCompliance<T extends Pick<AssistantFields, "hippa_compliant" | "audio_recording">>(fields: T): T {
  return fields.hippa_compliant ? { ...fields, audio_recording: false } : fields;
}

export async function createAssistant(
  ctx: AppContext,
  tenant: Tenant,
  body: CreateAssistantRequest,
): Promise<Assistant> {
  const limits = await effectiveLimits(ctx.db, tenant.userId);
  if (limits && (await countAssistants(ctx.db, tenant)) >= limits.maxAssistants) {
    throw new AppError("forbidden", ASSISTANT_LIMIT_TEXT);
  }
  const { llm_provider_config, stt_provider_config, tts_provider_config, ...rest } = body;
  const fields = applyCompliance({
    ...rest,
    llm_provider_config: resolveLlmConfig({ provider: rest.llm_provider, given: llm_provider_config }),
    stt_provider_config: resolveSttConfig({ provider: rest.stt_provider, given: stt_provider_config }),
    tts_provider_config: resolveTtsConfig({ provider: rest.tts_provider, given: tts_provider_config }),
  });
  await runAssistantSaveChecks(ctx.db, tenant, fields);
  return insertAssistant(ctx.db, tenant, fields);
}

/** PATCH: only the fields sent change; a changed provider starts again from its defaults. */
export async function updateAssistant(
  ctx: AppContext,
  tenant: TenantScope,
  id: string,
  body: UpdateAssistantRequest,
): Promise<Assistant> {
  const row = await requireAgent(ctx.db, tenant, id);
  await runAssistantSaveChecks(ctx.db, tenant, body);
  const current: AssistantFields = { ...row.config, name: row.name };
  const { llm_provider_config, stt_provider_config, tts_provider_config, ...rest } = body;
  const changes = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
  const next: AssistantFields = { ...current, ...changes };
  next.llm_provider_config = resolveLlmConfig({
    provider: next.llm_provider,
    previousProvider: current.llm_provider,
    previous: current.llm_provider_config,
    given: llm_provider_config,
  });
  next.stt_provider_config = resolveSttConfig({
    provider: next.stt_provider,
    previousProvider: current.stt_provider,
    previous: current.stt_provider_config,
    given: stt_provider_config,
  });
  next.tts_provider_config = resolveTtsConfig({
    provider: next.tts_provider,
    previousProvider: current.tts_provider,
    previous: current.tts_provider_config,
    given: tts_provider_config,
  });
  return updateAssistantRow(ctx.db, row, applyCompliance(next), ctx.now());
}
