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
import { type FieldPath, useWatch } from "react-hook-form";
import type { OptionItem } from "../../../lib/provider-options.ts";
import { useAutoSelect } from "../../../lib/use-auto-select.ts";
import type { AssistantFormInput } from "../utils/assistant-form.ts";
import { llmProviderChange, sttProviderChange, ttsProviderChange } from "../utils/provider-change.ts";
import { configField, mainPaths, type StagePaths } from "../utils/stage-paths.ts";
import type { EditorForm } from "./editor-types.ts";
import { ProviderSelect } from "./form-controls.tsx";
import { OptionPicker } from "./model-select.tsx";
import { HALF, type SettingsField } from "./settings-fields.tsx";

const choices = <P extends string>(ids: readonly P[], catalog: Record<P, { label: string }>) =>
  ids.map((id) => ({ value: id, label: catalog[id].label }));

/** The three stages a provider is chosen for: the tab's words and the providers to offer. */
const STAGES = {
  llm: { words: "model", providers: choices(LLM_PROVIDERS, LLM_CATALOG) },
  stt: { words: "transcriber", providers: choices(STT_PROVIDERS, STT_CATALOG) },
  tts: { words: "voice", providers: choices(TTS_PROVIDERS, TTS_CATALOG) },
} as const;

type Stage = keyof typeof STAGES;
type ProviderOf = { llm: LlmProviderId; stt: SttProviderId; tts: TtsProviderId };

/** Spec §4: a new provider brings its own model and configuration, which replace the old ones. */
const DEFAULT_CONFIG: { [S in Stage]: (provider: ProviderOf[S]) => object } = {
  llm: (provider) => llmProviderChange(provider).llm_provider_config,
  stt: (provider) => sttProviderChange(provider).stt_provider_config,
  tts: (provider) => ttsProviderChange(provider).tts_provider_config,
};

/**
 * Sets a value at a path the stage's place decides (its own provider or a backup's). The form's
 * path types cannot follow a path chosen at run time, so the value is handed over unchecked here;
 * the form's schema checks it.
 */
export function setAt(form: EditorForm, path: FieldPath<AssistantFormInput>, value: unknown, validate = true) {
  form.setValue(path, value as never, { shouldDirty: true, shouldValidate: validate });
}

function selectProvider<S extends Stage>(form: EditorForm, stage: S, at: StagePaths, provider: ProviderOf[S]) {
  setAt(form, at.provider, provider, false);
  setAt(form, at.config, DEFAULT_CONFIG[stage](provider));
}
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
  { validate = true, at = mainPaths(stage) }: { validate?: boolean; at?: StagePaths } = {},
): OptionItem[] | undefined {
  const name = configField(at, "model");
  const options = useMemo(() => {
    const list = answer.data?.models ?? (answer.isError ? builtIn : undefined);
    return list?.map((m) => ({ value: m.value, label: m.label ?? m.value }));
  }, [answer.data, answer.isError, builtIn]);
  const model = useWatch({ control: form.control, name });
  useAutoSelect(options, typeof model === "string" ? model : undefined, (value) => setAt(form, name, value, validate), {
    keepUnlisted: true,
  });
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
    /** A backup's place in the form; the assistant's own provider when left out. */
    at?: StagePaths;
  },
): SettingsField[] {
  const { words, providers } = STAGES[stage];
  const at = props.at ?? mainPaths(stage);
  const providerName = at.provider;
  const model = configField(at, "model");
  // Both pickers are bound to the form and labelled from the stage's words.
  const bound = (name: FieldPath<AssistantFormInput>, what: "provider" | "model") => ({
    control: props.form.control,
    name,
    label: props.t(`${words}.${what}`),
  });
  // The table holds the stage's own ids; TypeScript cannot follow the generic through it.
  const choices = providers as readonly { value: ProviderOf[S]; label: string }[];
  const select = (provider: ProviderOf[S]) => selectProvider(props.form, stage, at, provider);
  const providerSelect = <ProviderSelect {...bound(providerName, "provider")} options={choices} onSelect={select} />;
  const modelPicker = <OptionPicker {...bound(model, "model")} options={props.options ?? []} loading={props.loading} />;
  return [
    { kind: "custom", key: providerName, size: HALF, node: providerSelect },
    { kind: "custom", key: model, size: HALF, node: modelPicker },
  ];
}
