import { z } from "zod";
import { TELEPHONY_PROVIDERS } from "./providers/index.ts";
import { timestamps } from "./resource-fields.ts";

/**
 * Phone numbers (spec §1, §3 "Phone number", §7 "Phone numbers", §8 texts): numbers a workspace
 * answers and dials from — a telephony vendor's number, a number on a SIP
 * trunk, a SIP extension registered to Parley's own registrar, or a WhatsApp number.
 */

/** Where a number lives: a vendor with a telephony stage in its descriptor, or one of Parley's own kinds. */
export const PhoneProvider = z.enum([...TELEPHONY_PROVIDERS, "sip_trunk", "extension", "whatsapp"]);
export type PhoneProvider = z.infer<typeof PhoneProvider>;

/** The vendors whose numbers are imported from an account and driven over a media stream. */
export const MediaStreamProvider = z.enum(TELEPHONY_PROVIDERS);
export type MediaStreamProvider = z.infer<typeof MediaStreamProvider>;

// ── error texts (spec §8) ───────────────────────────────────────────────────

export const PHONE_NUMBER_TEXTS = {
  duplicate: "This phone number is already registered in your workspace",
  invalidNumber: "Invalid phone number format. Enter the number with its country code, for example +14155550123.",
  configureFailed: "Unable to configure phone service. Check the provider credentials and try again.",
  busy: "System is busy. Please wait a moment and try again",
  badCredentials: "The provider rejected these credentials. Check them and try again.",
  sipHostMissing: "Set a public SIP host (SIP_HOST) before adding SIP numbers.",
  extensionExists: (ext: string) => `Extension ${ext} already exists in this domain.`,
  invalidDomain: "Enter a valid SIP domain, for example sip.example.com.",
  switchUnreachable: "Failed to connect to the telephony switch. Please try again.",
  whatsappInvalidNumber: "Enter the WhatsApp number in E.164 format, for example +14155550123.",
  whatsappInvalidToken: "The WhatsApp access token is invalid or has expired.",
  whatsappInvalidPhoneNumberId: "The Phone Number ID was not found in this WhatsApp account.",
  whatsappUnreachable: "Unable to reach the WhatsApp Cloud API. Please try again in a moment.",
} as const;

// ── fields ──────────────────────────────────────────────────────────────────

/** A number as typed: normalised to E.164 by the server with libphonenumber-js (422 when it cannot). */
const NumberInput = z.string().trim().min(1, "Phone number is required").max(40);
const FriendlyName = z.string().trim().max(100);
/** ISO 3166-1 alpha-2, upper case. */
const CountryCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, "Choose a country")
  .transform((s) => s.toUpperCase());

/** A SIP trunk's fields as given, without defaults (a PATCH changes only what it names). */
const SipTrunkFields = z.object({
  /** Host[:port] of the carrier's SIP server (registrar and outbound proxy). */
  sip_host: z.string().trim().min(1, "SIP server is required").max(255),
  transport: z.enum(["udp", "tcp"]),
  username: z.string().trim().max(100),
  /** Write-only: stored encrypted, shown as "" with has_password. */
  password: z.string().max(200).optional(),
  /** Register to the carrier; off for IP-authenticated trunks. */
  register: z.boolean(),
  /** Carrier addresses whose INVITEs are accepted for this number (IP-authenticated trunks). */
  allowed_ips: z.array(z.string().trim().min(1).max(64)).max(20),
});

/** A SIP trunk: where Parley registers (when the carrier needs it) and sends outbound INVITEs. */
export const SipTrunkSettings = SipTrunkFields.extend({
  transport: SipTrunkFields.shape.transport.default("udp"),
  username: SipTrunkFields.shape.username.default(""),
  register: SipTrunkFields.shape.register.default(false),
  allowed_ips: SipTrunkFields.shape.allowed_ips.default([]),
});
export type SipTrunkSettings = z.infer<typeof SipTrunkSettings>;

export const CreatePhoneNumberBody = z.object({
  number: NumberInput,
  friendly_name: FriendlyName.default(""),
  country: CountryCode.optional(),
  provider: PhoneProvider,
  agent_id: z.string().uuid().nullable().default(null),
  outbound_agent_id: z.string().uuid().nullable().default(null),
  /** A squad answers inbound calls instead of an assistant (issue 31): not both. */
  squad_id: z.string().uuid().nullable().default(null),
  /** The saved integration whose credentials drive a vendor number (a MediaStreamProvider). */
  integration_id: z.string().uuid().nullable().default(null),
  /** Required when provider is sip_trunk. */
  sip_trunk: SipTrunkSettings.optional(),
});
export type CreatePhoneNumberBody = z.infer<typeof CreatePhoneNumberBody>;

export const UpdatePhoneNumberBody = z.object({
  friendly_name: FriendlyName.optional(),
  agent_id: z.string().uuid().nullable().optional(),
  outbound_agent_id: z.string().uuid().nullable().optional(),
  /** Inbound calls go to this squad (issue 31); setting it clears the inbound assistant, and the other way round. */
  squad_id: z.string().uuid().nullable().optional(),
  /** Only the named trunk fields change; a password replaces the stored one. */
  sip_trunk: SipTrunkFields.partial().optional(),
});
export type UpdatePhoneNumberBody = z.infer<typeof UpdatePhoneNumberBody>;

export const PhoneNumber = z.object({
  id: z.string(),
  friendly_name: z.string(),
  /** E.164 (an extension's number is its extension, e.g. "1001"). */
  number: z.string(),
  country: z.string().nullable(),
  provider: PhoneProvider,
  agent_id: z.string().nullable(),
  outbound_agent_id: z.string().nullable(),
  agent_name: z.string().nullable(),
  outbound_agent_name: z.string().nullable(),
  /** The squad that answers inbound calls instead of an assistant (issue 31). */
  squad_id: z.string().nullable().optional(),
  squad_name: z.string().nullable().optional(),
  integration_id: z.string().nullable(),
  /** The vendor's own id for the number (what its API updates the number by). */
  provider_number_id: z.string().nullable(),
  /** Trunk settings without the password. */
  sip_trunk: SipTrunkSettings.omit({ password: true }).extend({ has_password: z.boolean() }).nullable(),
  /** Extension numbers: the SIP identity a phone registers as. */
  extension: z.object({ ext: z.string(), domain: z.string(), username: z.string() }).nullable(),
  /** WhatsApp numbers: the Cloud API ids. */
  whatsapp: z.object({ phone_number_id: z.string(), business_account_id: z.string() }).nullable(),
  ...timestamps,
});
export type PhoneNumber = z.infer<typeof PhoneNumber>;

export const PhoneNumberList = z.object({ phone_numbers: z.array(PhoneNumber) });
export type PhoneNumberList = z.infer<typeof PhoneNumberList>;

// ── countries ───────────────────────────────────────────────────────────────

export const Country = z.object({
  /** ISO 3166-1 alpha-2. */
  code: z.string(),
  label: z.string(),
  /** "+44". */
  dialing_prefix: z.string(),
});
export type Country = z.infer<typeof Country>;

/** GET /phone-numbers/countries?locale=…: every country libphonenumber-js knows, labelled for the locale. */
export const CountryList = z.object({ countries: z.array(Country) });
export type CountryList = z.infer<typeof CountryList>;

// ── import from a provider ──────────────────────────────────────────────────

/** POST /phone-numbers/providers/import-numbers: a saved integration, or credentials typed in the dialog. */
export const ImportNumbersBody = z
  .object({
    provider: MediaStreamProvider,
    integration_id: z.string().uuid().optional(),
    credentials: z.record(z.string(), z.string().max(8000)).optional(),
    agent_id: z.string().uuid().nullable().default(null),
  })
  .refine((b) => b.integration_id !== undefined || b.credentials !== undefined, {
    message: "Choose a saved integration or enter the provider credentials",
    path: ["integration_id"],
  });
export type ImportNumbersBody = z.infer<typeof ImportNumbersBody>;

export const ImportNumbersResult = z.object({
  imported_count: z.number().int(),
  failed_count: z.number().int(),
  /** Why each failed number failed ("+14155550123: already registered"). */
  failures: z.array(z.object({ number: z.string(), reason: z.string() })),
});
export type ImportNumbersResult = z.infer<typeof ImportNumbersResult>;

// ── SIP extensions ──────────────────────────────────────────────────────────

const SipDomain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/,
    PHONE_NUMBER_TEXTS.invalidDomain,
  );
const Extension = z
  .string()
  .trim()
  .regex(/^[0-9]{2,10}$/, "An extension is 2 to 10 digits");

/** POST /phone-numbers/extensions. */
export const CreateExtensionBody = z.object({
  ext: Extension,
  domain: SipDomain,
  friendly_name: FriendlyName.default(""),
  agent_id: z.string().uuid().nullable().default(null),
});
export type CreateExtensionBody = z.infer<typeof CreateExtensionBody>;

/** 201: the number plus the SIP credentials, shown once (the password is not readable again). */
export const CreateExtensionResult = z.object({
  phone_number: PhoneNumber,
  sip: z.object({
    username: z.string(),
    password: z.string(),
    domain: z.string(),
    /** Where the phone registers: SIP_HOST:SIP_PORT. */
    registrar: z.string(),
    transport: z.array(z.enum(["udp", "tcp"])),
  }),
});
export type CreateExtensionResult = z.infer<typeof CreateExtensionResult>;

/**
 * Registration state of an extension (spec §3):
 * REGED — a device holds a current registration; NOREG — the extension exists, nothing is registered;
 * RUNNING — a call is up on the extension right now; ALIASED — the extension forwards to another
 * number rather than registering itself; NOT_FOUND — no such extension in this workspace.
 */
export const ExtensionState = z.enum(["REGED", "NOREG", "RUNNING", "ALIASED", "NOT_FOUND"]);
export type ExtensionState = z.infer<typeof ExtensionState>;

export const ExtensionStatusBody = z.object({ extension: Extension, domain: SipDomain });
export type ExtensionStatusBody = z.infer<typeof ExtensionStatusBody>;

export const ExtensionStatus = z.object({
  extension: z.string(),
  domain: z.string(),
  status: ExtensionState,
  /** Contact of the current registration, e.g. "sip:1001@127.0.0.1:5062". */
  contact: z.string().nullable(),
  expires_at: z.string().nullable(),
});
export type ExtensionStatus = z.infer<typeof ExtensionStatus>;

// ── WhatsApp ────────────────────────────────────────────────────────────────

export const E164 = z
  .string()
  .trim()
  .regex(/^\+[1-9][0-9]{6,14}$/, PHONE_NUMBER_TEXTS.whatsappInvalidNumber);

/** POST /phone-numbers/whatsapp/integrate. */
export const WhatsappIntegrateBody = z.object({
  number: E164,
  access_token: z.string().trim().min(1, "Access token is required").max(1000),
  phone_number_id: z
    .string()
    .trim()
    .regex(/^[0-9]{5,30}$/, "Enter the numeric Phone Number ID"),
  business_account_id: z
    .string()
    .trim()
    .regex(/^[0-9]{5,30}$/, "Enter the numeric business account ID (WABA ID)"),
  /** The Meta app secret that signs this number's webhooks (X-Hub-Signature-256); WHATSAPP_APP_SECRET when omitted. */
  app_secret: z.string().trim().max(200).optional(),
  friendly_name: FriendlyName.default(""),
  agent_id: z.string().uuid().nullable().default(null),
});
export type WhatsappIntegrateBody = z.infer<typeof WhatsappIntegrateBody>;

/** 201: the number plus what to paste into the Meta app's webhook settings. */
export const WhatsappIntegrateResult = z.object({
  phone_number: PhoneNumber,
  webhook: z.object({ callback_url: z.string(), verify_token: z.string() }),
});
export type WhatsappIntegrateResult = z.infer<typeof WhatsappIntegrateResult>;

// ── outbound ────────────────────────────────────────────────────────────────

/** POST /make_outbound_call: caller_uuid is the id of the phone number to call from. */
export const OutboundCallBody = z.object({
  caller_uuid: z.string().uuid(),
  destination_number: NumberInput,
});
export type OutboundCallBody = z.infer<typeof OutboundCallBody>;

export const OutboundCallResult = z.object({
  call_id: z.string(),
  status: z.literal("queued"),
  provider_call_id: z.string().nullable(),
  from_number: z.string(),
  to_number: z.string(),
});
export type OutboundCallResult = z.infer<typeof OutboundCallResult>;
