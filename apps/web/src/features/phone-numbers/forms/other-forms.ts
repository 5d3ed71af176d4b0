import { type IntegrationProviderInfo, MediaStreamProvider, WhatsappIntegrateBody } from "@parley/contract";
import { z } from "zod";
import type { NewExtension, NewImport, NewMessagingNumber } from "../../../api/phone-numbers.ts";
import { compactNumber, e164Problem, orNull } from "./number-rules.ts";

// ── import from a provider ──────────────────────────────────────────────────

/** A saved integration of the workspace, or credentials typed in the dialog. */
export const CredentialSource = z.enum(["saved", "typed"]);
export type CredentialSource = z.infer<typeof CredentialSource>;

export const importForm = (m: { chooseIntegration: string; fieldRequired: (label: string) => string }) =>
  z
    .object({
      provider: MediaStreamProvider,
      source: CredentialSource,
      integration_id: z.string(),
      // A field not typed yet is undefined, not a wrong type: only the vendor's required ones are refused below.
      credentials: z.record(z.string(), z.string().optional()),
      agent_id: z.string(),
      /** The typed fields the provider needs (its descriptor's), to check each is filled. */
      fields: z.array(z.object({ name: z.string(), label: z.string(), optional: z.boolean() })),
    })
    .superRefine((v, ctx) => {
      if (v.source === "saved") {
        if (!v.integration_id) ctx.addIssue({ code: "custom", path: ["integration_id"], message: m.chooseIntegration });
        return;
      }
      for (const field of v.fields) {
        if (!field.optional && !v.credentials[field.name]?.trim())
          ctx.addIssue({ code: "custom", path: ["credentials", field.name], message: m.fieldRequired(field.label) });
      }
    });
export type ImportValues = z.output<ReturnType<typeof importForm>>;

/** The credential fields to type for a provider, as its descriptor lists them. */
export const credentialFields = (info: IntegrationProviderInfo | undefined) =>
  (info?.fields ?? []).map(({ name, label, optional }) => ({ name, label, optional }));

export function toImportBody(v: ImportValues): NewImport {
  const agent_id = orNull(v.agent_id);
  if (v.source === "saved") return { provider: v.provider, integration_id: v.integration_id, agent_id };
  const credentials = Object.fromEntries(
    v.fields.flatMap((f) => {
      const value = v.credentials[f.name]?.trim() ?? "";
      return value ? [[f.name, value]] : [];
    }),
  );
  return { provider: v.provider, credentials, agent_id };
}

// ── SIP extension ───────────────────────────────────────────────────────────

export const extensionForm = (m: { extInvalid: string; domainInvalid: string }) =>
  z.object({
    ext: z
      .string()
      .trim()
      .regex(/^[0-9]{2,10}$/, m.extInvalid),
    domain: z
      .string()
      .trim()
      .toLowerCase()
      .regex(
        /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/,
        m.domainInvalid,
      ),
    friendly_name: z.string().trim().max(100),
    agent_id: z.string(),
  });
export type ExtensionValues = z.output<ReturnType<typeof extensionForm>>;

export const toExtensionBody = (v: ExtensionValues): NewExtension => ({ ...v, agent_id: orNull(v.agent_id) });

// ── messaging number ────────────────────────────────────────────────────────

const fields = WhatsappIntegrateBody.shape;

/** Spec §5: the number must be E.164; the ids and token keep the contract's own rules and texts. */
export const messagingForm = z.object({
  number: z.string().superRefine((value, ctx) => {
    const problem = e164Problem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
  access_token: fields.access_token,
  phone_number_id: fields.phone_number_id,
  business_account_id: fields.business_account_id,
  app_secret: z.string().trim().max(200),
  friendly_name: z.string().trim().max(100),
  agent_id: z.string(),
});
export type MessagingValues = z.output<typeof messagingForm>;

export const toMessagingBody = (v: MessagingValues): NewMessagingNumber => ({
  ...v,
  number: compactNumber(v.number),
  // Empty: the server's WHATSAPP_APP_SECRET signs this number's webhooks.
  app_secret: v.app_secret || undefined,
  agent_id: orNull(v.agent_id),
});
