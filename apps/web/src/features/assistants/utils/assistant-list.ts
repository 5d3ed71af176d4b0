import { type Assistant, type CreateAssistantBody, LLM_CATALOG, STT_CATALOG, TTS_CATALOG } from "@parley/contract";

/** What a list shows of an assistant's providers: their labels and the model's label, never raw ids. */
export function assistantSummary(a: Assistant) {
  const llm = LLM_CATALOG[a.llm_provider];
  const model = llm.models.find((m) => m.value === a.llm_provider_config.model)?.label ?? a.llm_provider_config.model;
  return { llm: llm.label, model, stt: STT_CATALOG[a.stt_provider].label, tts: TTS_CATALOG[a.tts_provider].label };
}

/** Case-insensitive match on the name, and on the providers and model as shown and as stored. */
export function searchAssistants(list: readonly Assistant[], query: string): Assistant[] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return [...list];
  return list.filter((a) =>
    [
      a.name,
      a.llm_provider,
      a.llm_provider_config.model,
      a.stt_provider,
      a.tts_provider,
      ...Object.values(assistantSummary(a)),
    ].some((text) => text.toLocaleLowerCase().includes(needle)),
  );
}

/** The create body that copies an assistant under a new name. */
export function duplicateBody(assistant: Assistant, name: string): CreateAssistantBody {
  const { id: _id, temp: _temp, created_at: _c, updated_at: _u, ...fields } = assistant;
  return { ...fields, name };
}
