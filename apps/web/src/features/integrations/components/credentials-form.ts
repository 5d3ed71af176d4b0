import type { CredentialField, Integration } from "@parley/contract";
import type { TFunction } from "i18next";
import { z } from "zod";

export type CredentialValues = Record<string, string>;

/**
 * The form's rules for a provider's fields: required ones filled (a stored secret may stay blank,
 * which keeps it), URL fields http(s). The server checks the same with the contract's rules.
 */
export function credentialsSchema(integration: Integration, t: TFunction<"integrations">) {
  const shape: Record<string, z.ZodType<string, string>> = {};
  for (const field of integration.fields) {
    const keepsStored = field.secret && integration.configured && Boolean(integration.values[field.name]);
    let rule = z.string().trim();
    if (!field.optional && !keepsStored) rule = rule.min(1, t("required"));
    shape[field.name] = field.url ? rule.refine((v) => v === "" || /^https?:\/\/\S+$/i.test(v), t("urlInvalid")) : rule;
  }
  return z.object(shape);
}

/** Non-secret fields start with what is stored; secrets always start empty (they are write-only). */
export const credentialDefaults = (integration: Integration): CredentialValues =>
  Object.fromEntries(integration.fields.map((f) => [f.name, f.secret ? "" : (integration.values[f.name] ?? "")]));

/** The translated label of a catalog field, falling back to the catalog's English one. */
export const fieldLabel = (field: CredentialField, t: TFunction<"integrations">) =>
  t(`credentialFields.${field.name}`, { defaultValue: field.label });
