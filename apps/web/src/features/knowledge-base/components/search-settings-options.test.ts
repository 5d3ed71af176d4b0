import { EMBEDDINGS_PROVIDERS, providerDescriptor, providerLabel } from "@parley/contract";
import { describe, expect, it } from "vitest";
import {
  defaultEmbeddingsModel,
  embeddingsModelOptions,
  embeddingsProviderOf,
  embeddingsProviderOptions,
} from "./search-settings-options.ts";

const [first] = EMBEDDINGS_PROVIDERS;
const stage = providerDescriptor(first)?.embeddings;

describe("embeddingsProviderOptions", () => {
  it("offers every provider with an embeddings stage, by its display name", () => {
    expect(embeddingsProviderOptions()).toEqual(
      EMBEDDINGS_PROVIDERS.map((id) => ({ value: id, label: providerLabel(id) })),
    );
  });
});

describe("embeddingsProviderOf", () => {
  it("maps the empty choice (and anything not offered) to keyword search only", () => {
    expect(embeddingsProviderOf("")).toBeNull();
    expect(embeddingsProviderOf("no-such-provider")).toBeNull();
    expect(embeddingsProviderOf(first)).toBe(first);
  });
});

describe("embeddingsModelOptions", () => {
  it("lists the provider's catalog models with their labels", () => {
    expect(embeddingsModelOptions(first, null)).toEqual(
      stage?.models.map((model) => ({ value: model.value, label: model.label ?? model.value })),
    );
  });

  it("keeps a saved model the catalog does not list, once", () => {
    const options = embeddingsModelOptions(first, "my-own-embedder");
    expect(options.at(-1)).toEqual({ value: "my-own-embedder", label: "my-own-embedder" });
    expect(embeddingsModelOptions(first, stage?.defaultModel ?? null)).toHaveLength(stage?.models.length ?? 0);
  });

  it("has no models without a provider", () => {
    expect(embeddingsModelOptions(null, "anything")).toEqual([]);
  });
});

describe("defaultEmbeddingsModel", () => {
  it("starts a picked provider on its catalog default, and keyword search on none", () => {
    expect(defaultEmbeddingsModel(first)).toBe(stage?.defaultModel);
    expect(defaultEmbeddingsModel(null)).toBeNull();
  });
});
