/** Local doubles of the telephony vendors, for Parley's phone tests (see README.md in this folder). */
export { callerSpeech, frameRms, isNonSilent, loudMs } from "./audio-checks.ts";
export type { OutboundBehaviour, TelephonyDouble } from "./double-calls.ts";
export type { DoubleRequest, WebhookExchange } from "./double-server.ts";
export type { ConferenceMembership, ConferenceRoom } from "./markup-runner.ts";
export { type LegEvent, type LegResult, PhoneLeg } from "./phone-leg.ts";
export { type PlivoDouble, startPlivoDouble } from "./plivo-double.ts";
export { plivoSignatureV3 } from "./plivo-signature.ts";
export type { CallHandle, DtmfOutRecord, InboundOptions, OutboundOutcome, TransferRecord } from "./simulated-call.ts";
export { startTelnyxDouble, type TelnyxDouble } from "./telnyx-double.ts";
export { startTwilioDouble, type TwilioDouble } from "./twilio-double.ts";
export { twilioSignature } from "./twilio-signature.ts";
export { startVonageDouble, type VonageDouble } from "./vonage-double.ts";
export { checkWebhookJwt, signWebhookJwt, webhookPayload } from "./vonage-jwt.ts";
