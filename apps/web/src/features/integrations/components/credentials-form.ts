import type { CredentialField, Integration } from "@parley/contract";
import type { TFunction } from "i18next";
import { z } from "zod";

export type CredentialValues = Record<string, string>;

/** The origin of a URL, or the text itself when it is none (so any change counts as a move). */
function originOf(value: string): string {
  try {
    return new URL(value).origin;
  } catch {
    return value;
  }
}

/** Whether the typed values move one of the provider's URL fields to another host than the stored one. */
export function movesHost(integration: Integration, values: CredentialValues): boolean {
  return integration.fields.some((f) => {
    const stored = integration.values[f.name];
    const typed = values[f.name]?.trim();
    // Saved without a URL, the secrets belong to the vendor's own API: any URL typed is another host.
    return f.url && Boolean(typed) && (!stored || originOf(typed ?? "") !== originOf(stored));
  });
}

/**
 * The form's rules for a provider's fields: required ones filled (a stored secret may stay blank,
 * which keeps it, unless a URL field now points at another host: a saved secret is only sent to the
 * host it was saved with), URL fields http(s). The server checks the same with the contract's rules.
 */
export function credentialsSchema(integration: Integration, t: TFunction<"integrations">) {
  const shape: Record<string, z.ZodType<string, string>> = {};
  for (const field of integration.fields) {
    const keepsStored = field.secret && integration.configured && Boolean(integration.values[field.name]);
    let rule = z.string().trim();
    if (!field.optional && !keepsStored) rule = rule.min(1, t("required"));
    shape[field.name] = field.url ? rule.refine((v) => v === "" || /^https?:\/\/\S+$/i.test(v), t("urlInvalid")) : rule;
  }
  return z.object(shape).superRefine((values, context) => {
    if (!movesHost(integration, values)) return;
    for (const field of integration.fields) {
      if (field.secret && integration.values[field.name] && !values[field.name]?.trim()) {
        context.addIssue({ code: "custom", path: [field.name], message: t("secretAgain") });
      }
    }
  });
}

/** Non-secret fields start with what is stored; secrets always start empty (they are write-only). */
export const credentialDefaults = (integration: Integration): CredentialValues =>
  Object.fromEntries(integration.fields.map((f) => [f.name, f.secret ? "" : (integration.values[f.name] ?? "")]));

/** The translated label of a catalog field, falling back to the catalog's English one. */
export const fieldLabel = (field: CredentialField, t: TFunction<"integrations">) =>
  t(`credentialFields.${field.name}`, { defaultValue: field.label });
