import type { Assistant, CreateAssistantBody } from "@parley/contract";

/** Spec §3: assistants flagged temp never appear in the list. */
export function visibleAssistants(list: readonly Assistant[]): Assistant[] {
  return list.filter((a) => !a.temp);
}

/** Case-insensitive match on the name and the providers and model shown in the list. */
export function searchAssistants(list: readonly Assistant[], query: string): Assistant[] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return [...list];
  return list.filter((a) =>
    [a.name, a.llm_provider, a.llm_provider_config.model, a.stt_provider, a.tts_provider].some((text) =>
      text.toLocaleLowerCase().includes(needle),
    ),
  );
}

/** The create body that copies an assistant under a new name. */
export function duplicateBody(assistant: Assistant, name: string): CreateAssistantBody {
  const { id: _id, temp: _temp, created_at: _c, updated_at: _u, ...fields } = assistant;
  return { ...fields, name };
}
