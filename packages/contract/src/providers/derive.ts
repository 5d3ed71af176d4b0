import { z } from "zod";
import type { ModelOption } from "./editor-options.ts";
import type { LlmStage, ProviderDescriptor, SttStage, TtsStage } from "./types.ts";

/**
 * Typed derivations from descriptor lists. `map` and `Object.fromEntries` forget which id goes
 * with which value, so each helper restores that with one assertion its signature spells out.
 */

type Listed = readonly ProviderDescriptor[];
export type PricedStage = "llm" | "stt" | "tts";

/** The ids of a descriptor tuple, as a tuple of literals (what z.enum needs). */
export type IdsOf<L extends Listed> = { readonly [K in keyof L]: L[K] extends { readonly id: infer I } ? I : never };

export function idsOf<const L extends Listed>(list: L): IdsOf<L> {
  return list.map((d) => d.id) as IdsOf<L>;
}

/** `list` keyed by id, one computed value per provider. */
export function byId<const L extends Listed, V>(list: L, value: (d: L[number]) => V): Record<L[number]["id"], V> {
  return Object.fromEntries(list.map((d) => [d.id, value(d)])) as Record<L[number]["id"], V>;
}

/** One field of one stage keyed by id, each id keeping its own type (its own schema, its own price). */
export type StageField<L extends Listed, S extends PricedStage, K extends string> = {
  [D in L[number] as D["id"]]: D extends { readonly [P in S]: infer Stage }
    ? K extends keyof Stage
      ? Stage[K]
      : never
    : never;
};

export function stageField<const L extends Listed, S extends PricedStage, K extends string>(
  list: L,
  stage: S,
  key: K,
): StageField<L, S, K> {
  // The stage is a union type here, which TypeScript will not index by a generic key.
  const pick = (d: ProviderDescriptor): unknown => Object.entries(d[stage] ?? {}).find(([name]) => name === key)?.[1];
  return Object.fromEntries(list.map((d) => [d.id, pick(d)])) as StageField<L, S, K>;
}

type ConfigOf<D, S extends PricedStage> = D extends {
  readonly [P in S]: { readonly config: infer C extends z.ZodObject };
}
  ? C
  : never;

/** One `{ provider, config }` object schema per provider of a stage, as a tuple z.discriminatedUnion takes. */
export type SettingsOptions<L extends Listed, S extends PricedStage> = {
  -readonly [K in keyof L]: z.ZodObject<{
    provider: z.ZodLiteral<L[K] extends { readonly id: infer I extends string } ? I : never>;
    config: ConfigOf<L[K], S>;
  }>;
};

export function settingsOptions<
  const L extends readonly (ProviderDescriptor & { readonly [P in S]: { readonly config: z.ZodObject } })[],
  S extends PricedStage,
>(list: L, stage: S): SettingsOptions<L, S> {
  const options = list.map((d) => z.object({ provider: z.literal(d.id), config: d[stage].config }));
  return options as SettingsOptions<L, S>;
}

/** What the editor calls a provider's stage: the stage's own label, else the vendor's. */
export const stageLabel = (d: ProviderDescriptor, stage: LlmStage | SttStage | TtsStage): string =>
  stage.label ?? d.label;

/** What the editor's catalog says of every provider's stage; each stage's catalog adds its own. */
export interface StageInfo {
  label: string;
  models: ModelOption[];
  needsKey: boolean;
  /** Runs without the internet (on this server, or a local server such as Ollama). */
  offline: boolean;
}
