import {
  ASSISTANT_DEFAULTS,
  LLM_CATALOG,
  LLM_DEFAULT_CONFIG,
  type LlmProviderId,
  providerLabel,
} from "@parley/contract";
import { useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useDebouncedValue } from "../../../lib/use-debounced-value.ts";
import { useLlmModels } from "../api/catalog-api.ts";
import { llmNeedsDeployment } from "../utils/provider-traits.ts";
import { configField, mainPaths, type StagePaths } from "../utils/stage-paths.ts";
import type { EditorForm } from "./editor-types.ts";
import { providerAndModelFields, useModelOptions } from "./provider-fields.tsx";
import { HALF, type SettingsField } from "./settings-fields.tsx";

/**
 * The language model's provider, model and where to reach it (base URL, deployment), for the
 * assistant's own model or, with `at`, one of its backups.
 */
export function useLlmProviderFields(form: EditorForm, at: StagePaths = mainPaths("llm")): SettingsField[] {
  const { t } = useTranslation("assistants");
  const { control } = form;
  const watched = useWatch({ control, name: at.provider });
  const provider = (
    typeof watched === "string" && watched in LLM_CATALOG ? watched : ASSISTANT_DEFAULTS.llm_provider
  ) as LlmProviderId;
  const typedBaseUrl = useWatch({ control, name: configField(at, "base_url") });
  // Each URL typed is a request to that server: ask once the typing has paused.
  const baseUrl = useDebouncedValue(typeof typedBaseUrl === "string" ? typedBaseUrl : undefined, 600);
  const models = useLlmModels(provider, baseUrl);
  const options = useModelOptions("llm", form, models, LLM_CATALOG[provider].models, { at });
  const info = LLM_CATALOG[provider];
  // A server that could not be asked for its models says why under its URL.
  let baseUrlHelp = t("model.baseUrlHelp", { example: LLM_DEFAULT_CONFIG[provider].base_url ?? "" });
  const deployment = llmNeedsDeployment(provider);
  if (deployment) baseUrlHelp = t("model.resourceBaseUrlHelp", { provider: providerLabel(provider) });
  if (models.data?.error) baseUrlHelp = t("model.serverModelsFailed", { error: models.data.error });

  const fields: (SettingsField | false)[] = [
    ...providerAndModelFields("llm", { form, t, options, loading: models.isPending, at }),
    info.needsBaseUrl && {
      kind: "text",
      name: configField(at, "base_url"),
      label: t("model.baseUrl"),
      help: baseUrlHelp,
      required: true,
    },
    deployment && {
      kind: "text",
      name: configField(at, "deployment"),
      label: t("model.deployment"),
      size: HALF,
      required: true,
    },
    deployment && { kind: "text", name: configField(at, "api_version"), label: t("model.apiVersion"), size: HALF },
  ];
  return fields.filter((field): field is SettingsField => field !== false);
}
