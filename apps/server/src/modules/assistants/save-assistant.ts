import { type Assistant, type AssistantFields, CreateAssistantBody, UpdateAssistantBody } from "@parley/contract";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import type { Tenant, TenantScope } from "../../lib/tenant-scope.ts";
import { effectiveLimits } from "../users/limits.ts";
import { draftOf, saveDraft } from "./draft.ts";
import { resolveLlmConfig, resolveSttConfig, resolveTtsConfig } from "./provider-config.ts";
import { runAssistantSaveChecks } from "./save-checks.ts";
import { type AgentRow, countAssistants, insertAssistant, requireAgent, toAssistant } from "./service.ts";
import { publishConfig, writeFirstVersion } from "./versions.ts";

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
  // Created as its version 1, so every assistant has a version its calls ran from the start.
  const row = await ctx.db.transaction(async (tx) => {
    const inserted = await insertAssistant(tx, tenant, fields);
    await writeFirstVersion(tx, tenant, inserted, tenant.userId);
    return inserted;
  });
  return toAssistant(row);
}

/** The fields sent laid over `current`; a changed provider starts again from its defaults. */
function applyUpdate(current: AssistantFields, body: UpdateAssistantRequest): AssistantFields {
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
  return applyCompliance(next);
}

/** The draft with the fields sent laid over it (the published configuration when nothing is pending). */
export async function editedDraft(
  ctx: AppContext,
  tenant: TenantScope,
  row: AgentRow,
  body: UpdateAssistantRequest,
): Promise<AssistantFields> {
  await runAssistantSaveChecks(ctx.db, tenant, body);
  return applyUpdate(draftOf(row), body);
}

/**
 * PATCH /agents/{id}: only the fields sent change. It edits the draft and, unless `publish` is
 * false, publishes it as a new version (what a PATCH always did: the next call runs it; a draft
 * the editor left pending is published with it). With `publish` false only the draft is saved and
 * the answer is the draft in the assistant's shape; calls keep running the published version.
 */
export async function updateAssistant(
  ctx: AppContext,
  tenant: Tenant,
  id: string,
  body: UpdateAssistantRequest,
  publish = true,
): Promise<Assistant> {
  const row = await requireAgent(ctx.db, tenant, id);
  const next = await editedDraft(ctx, tenant, row, body);
  if (!publish) {
    const saved = await saveDraft(ctx.db, tenant, row, next);
    return { ...toAssistant(saved), ...draftOf(saved) };
  }
  return toAssistant(await publishConfig(ctx.db, tenant, id, next, { note: "", authorId: tenant.userId }, ctx.now()));
}
