import { MediaStreamProvider, SipTrunkSettings } from "@parley/contract";
import { z } from "zod";
import type { NewPhoneNumber } from "../../../api/phone-numbers.ts";
import { compactNumber, hasCountryCode, listOf, orNull, phoneNumberField } from "./number-rules.ts";

/** The sentences the create form says, in the interface language. */
export interface CreateNumberMessages {
  numberRequired: string;
  numberInvalid: string;
  countryNeeded: string;
  sipHostRequired: string;
  usernameRequired: string;
  ipInvalid: string;
}

/** A number with a vendor (its media stream carries the call), or a number on the carrier's SIP trunk. */
export const NumberKind = z.enum(["own", "sip_trunk"]);
export type NumberKind = z.infer<typeof NumberKind>;

/** An IPv4 or IPv6 address, optionally a CIDR range: what a carrier publishes for its signalling. */
const ADDRESS = /^([0-9]{1,3}(\.[0-9]{1,3}){3}|[0-9a-f:]*:[0-9a-f:.]*)(\/[0-9]{1,3})?$/i;

/**
 * The create dialog's fields. Selects hold "" for none; the trunk's carrier addresses are one text
 * field. Cross-field rules: a number without "+" needs its country, and a trunk needs its server
 * (and a username when Parley registers to it).
 */
export const createNumberForm = (m: CreateNumberMessages) =>
  z
    .object({
      kind: NumberKind,
      friendly_name: z.string().trim().max(100),
      country: z.string(),
      number: phoneNumberField({ required: m.numberRequired, invalid: m.numberInvalid }),
      provider: MediaStreamProvider,
      integration_id: z.string(),
      agent_id: z.string(),
      outbound_agent_id: z.string(),
      sip_host: z.string().trim().max(255),
      transport: SipTrunkSettings.shape.transport.unwrap(),
      username: z.string().trim().max(100),
      password: z.string().max(200),
      register: z.boolean(),
      allowed_ips: z.string(),
    })
    .superRefine((v, ctx) => {
      if (!hasCountryCode(v.number) && !v.country)
        ctx.addIssue({ code: "custom", path: ["country"], message: m.countryNeeded });
      if (v.kind !== "sip_trunk") return;
      if (!v.sip_host) ctx.addIssue({ code: "custom", path: ["sip_host"], message: m.sipHostRequired });
      if (v.register && !v.username) ctx.addIssue({ code: "custom", path: ["username"], message: m.usernameRequired });
      const bad = listOf(v.allowed_ips).find((ip) => !ADDRESS.test(ip));
      if (bad) ctx.addIssue({ code: "custom", path: ["allowed_ips"], message: `${m.ipInvalid} ${bad}` });
    });

export type CreateNumberValues = z.output<ReturnType<typeof createNumberForm>>;

export const createNumberDefaults = (provider: MediaStreamProvider): CreateNumberValues => ({
  kind: "own",
  friendly_name: "",
  country: "",
  number: "",
  provider,
  integration_id: "",
  agent_id: "",
  outbound_agent_id: "",
  sip_host: "",
  transport: "udp",
  username: "",
  password: "",
  register: false,
  allowed_ips: "",
});

/** POST /phone-numbers: a vendor number names its integration; a trunk number carries its trunk settings. */
export function toCreateBody(v: CreateNumberValues): NewPhoneNumber {
  const common = {
    number: compactNumber(v.number),
    friendly_name: v.friendly_name,
    country: v.country || undefined,
    agent_id: orNull(v.agent_id),
    outbound_agent_id: orNull(v.outbound_agent_id),
  };
  if (v.kind === "own") return { ...common, provider: v.provider, integration_id: orNull(v.integration_id) };
  return {
    ...common,
    provider: "sip_trunk",
    sip_trunk: {
      sip_host: v.sip_host,
      transport: v.transport,
      username: v.username,
      // Empty means none: an IP-authenticated trunk has no password.
      password: v.password || undefined,
      register: v.register,
      allowed_ips: listOf(v.allowed_ips),
    },
  };
}
