import { type ApiKeyScope, CreateApiKeyBody as Body, type CreateApiKeyBody } from "@parley/contract";
import { z } from "zod";

/** How long a new key lives: a fixed number of days, never, or until a chosen date. */
export const EXPIRY_CHOICES = ["30", "90", "365", "never", "custom"] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];

/** The create dialog's form: the contract's rules for name and scopes, expiry as a choice. */
export const KeyForm = z
  .object({
    name: Body.shape.name,
    scopes: Body.shape.scopes,
    expiry: z.enum(EXPIRY_CHOICES),
    /** yyyy-mm-dd from the date input, used when expiry is "custom". */
    customDate: z.string(),
  })
  .refine((v) => v.expiry !== "custom" || /^\d{4}-\d{2}-\d{2}$/.test(v.customDate), {
    path: ["customDate"],
    message: "Choose a date",
  });
export type KeyFormInput = z.input<typeof KeyForm>;
export type KeyFormOutput = z.output<typeof KeyForm>;

export const keyFormDefaults: KeyFormInput = {
  name: "",
  scopes: ["read", "write"] satisfies ApiKeyScope[],
  expiry: "90",
  customDate: "",
};

const DAY_MS = 86_400_000;

/** The request body; a custom date expires at the end of that day, local time. */
export function toCreateBody(values: KeyFormOutput, now = new Date()): CreateApiKeyBody {
  let expiresAt: string | null = null;
  if (values.expiry === "custom") expiresAt = new Date(`${values.customDate}T23:59:59`).toISOString();
  else if (values.expiry !== "never")
    expiresAt = new Date(now.getTime() + Number(values.expiry) * DAY_MS).toISOString();
  return { name: values.name, scopes: values.scopes, expires_at: expiresAt };
}
