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
import type { EditorControl, EditorForm } from "./editor-types.ts";
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
    control: EditorControl;
    t: (key: string) => string;
    onSelect: (provider: ProviderOf[S]) => void;
    options: OptionItem[] | undefined;
    loading: boolean;
  },
): SettingsField[] {
  const { words, model, providers } = STAGES[stage];
  const providerName = `${stage}_provider` as const;
  return [
    {
      kind: "custom",
      key: providerName,
      size: HALF,
      node: (
        <ProviderSelect
          control={props.control}
          name={providerName}
          label={props.t(`${words}.provider`)}
          // The table holds the stage's own ids; TypeScript cannot follow the generic through it.
          options={providers as readonly { value: ProviderOf[S]; label: string }[]}
          onSelect={props.onSelect}
        />
      ),
    },
    {
      kind: "custom",
      key: model,
      size: HALF,
      node: (
        <OptionPicker
          control={props.control}
          name={model}
          label={props.t(`${words}.model`)}
          options={props.options ?? []}
          loading={props.loading}
        />
      ),
    },
  ];
}
