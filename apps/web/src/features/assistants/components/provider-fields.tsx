import {
  LLM_CATALOG,
  LLM_PROVIDERS,
  type LlmProviderId,
  STT_CATALOG,
  STT_PROVIDERS,
  type SttProviderId,
  TTS_CATALOG,
  TTS_PROVIDERS,
  type TtsProviderId,
} from "@parley/contract";
import { useMemo } from "react";
import { useWatch } from "react-hook-form";
import type { OptionItem } from "../../../lib/provider-options.ts";
import { useAutoSelect } from "../../../lib/use-auto-select.ts";
import { llmProviderChange, sttProviderChange, ttsProviderChange } from "../utils/provider-change.ts";
import type { EditorForm } from "./editor-types.ts";
import { ProviderSelect } from "./form-controls.tsx";
import { OptionPicker } from "./model-select.tsx";
import { HALF, type SettingsField } from "./settings-fields.tsx";

const choices = <P extends string>(ids: readonly P[], catalog: Record<P, { label: string }>) =>
  ids.map((id) => ({ value: id, label: catalog[id].label }));

/** The three stages a provider is chosen for: the tab's words, the form fields and the providers to offer. */
const STAGES = {
  llm: { words: "model", model: "llm_provider_config.model", providers: choices(LLM_PROVIDERS, LLM_CATALOG) },
  stt: { words: "transcriber", model: "stt_provider_config.model", providers: choices(STT_PROVIDERS, STT_CATALOG) },
  tts: { words: "voice", model: "tts_provider_config.model", providers: choices(TTS_PROVIDERS, TTS_CATALOG) },
} as const;

type Stage = keyof typeof STAGES;
type ProviderOf = { llm: LlmProviderId; stt: SttProviderId; tts: TtsProviderId };

const DIRTY = { shouldDirty: true };
const CHECKED = { shouldDirty: true, shouldValidate: true };

/** Spec §4: a new provider brings its own model and configuration, which replace the old ones. */
const SELECT: { [S in Stage]: (form: EditorForm, provider: ProviderOf[S]) => void } = {
  llm: (form, provider) => {
    const change = llmProviderChange(provider);
    form.setValue("llm_provider", change.llm_provider, DIRTY);
    form.setValue("llm_provider_config", change.llm_provider_config, CHECKED);
  },
  stt: (form, provider) => {
    const change = sttProviderChange(provider);
    form.setValue("stt_provider", change.stt_provider, DIRTY);
    form.setValue("stt_provider_config", change.stt_provider_config, CHECKED);
  },
  tts: (form, provider) => {
    const change = ttsProviderChange(provider);
    form.setValue("tts_provider", change.tts_provider, DIRTY);
    form.setValue("tts_provider_config", change.tts_provider_config, CHECKED);
  },
};
type ModelList = readonly { value: string; label?: string | null }[];

/**
 * The models to offer (undefined while loading): the server's list, or the built-in catalogue when
 * the server could not be asked. The first one is picked when the model is empty; a model the list
 * does not know (a fine-tuned or local one) is kept.
 */
export function useModelOptions(
  stage: Stage,
  form: EditorForm,
  answer: { data?: { models?: ModelList }; isError: boolean },
  builtIn: ModelList,
  /** The transcriber's model is not validated on its own while the rest of its settings follow. */
  { validate = true }: { validate?: boolean } = {},
): OptionItem[] | undefined {
  const name = STAGES[stage].model;
  const options = useMemo(() => {
    const list = answer.data?.models ?? (answer.isError ? builtIn : undefined);
    return list?.map((m) => ({ value: m.value, label: m.label ?? m.value }));
  }, [answer.data, answer.isError, builtIn]);
  const model = useWatch({ control: form.control, name });
  useAutoSelect(
    options,
    typeof model === "string" ? model : undefined,
    (value) =>
      form.setValue(name, value, validate ? { shouldDirty: true, shouldValidate: true } : { shouldDirty: true }),
    { keepUnlisted: true },
  );
  return options;
}

/** The provider picker and its model picker, side by side from the small breakpoint up. */
export function providerAndModelFields<S extends Stage>(
  stage: S,
  props: {
    form: EditorForm;
    t: (key: string) => string;
    options: OptionItem[] | undefined;
    loading: boolean;
  },
): SettingsField[] {
  const { words, model, providers } = STAGES[stage];
  const providerName = `${stage}_provider` as const;
  // Both pickers are bound to the form and labelled from the stage's words.
  const bound = (name: typeof providerName | typeof model, what: "provider" | "model") => ({
    control: props.form.control,
    name,
    label: props.t(`${words}.${what}`),
  });
  // The table holds the stage's own ids; TypeScript cannot follow the generic through it.
  const choices = providers as readonly { value: ProviderOf[S]; label: string }[];
  const select = (provider: ProviderOf[S]) => SELECT[stage](props.form, provider);
  const providerSelect = <ProviderSelect {...bound(providerName, "provider")} options={choices} onSelect={select} />;
  const modelPicker = <OptionPicker {...bound(model, "model")} options={props.options ?? []} loading={props.loading} />;
  return [
    { kind: "custom", key: providerName, size: HALF, node: providerSelect },
    { kind: "custom", key: model, size: HALF, node: modelPicker },
  ];
}
