/** Parley's SIP: messages, digest auth, transports, registrar, user agent, SDP, RTP and RFC 4733 DTMF. */

export { type CallEnd, CallLeg, type ReferOutcome } from "./call-leg.ts";
export {
  answerChallenge,
  createNonceIssuer,
  digestHa1,
  type NonceIssuer,
  parseDigest,
  verifyDigest,
} from "./digest.ts";
export { type G711Codec, g711Decode, g711Encode } from "./g711.ts";
export { InboundCall } from "./inbound-call.ts";
export {
  createResponse,
  parseMessage,
  SipHeaders,
  type SipMessage,
  type SipRequest,
  type SipResponse,
  serializeMessage,
} from "./message.ts";
export { type DialOptions, type DialResult, OutboundCall } from "./outbound-call.ts";
export { RegisterClient, type RegisterClientOptions } from "./register-client.ts";
export {
  type Binding,
  type BindingStore,
  handleRegister,
  REGISTER_BLOCKED,
  type RegisterAttempt,
  type RegisterGuard,
  type RegistrarOptions,
} from "./registrar.ts";
export { parseDtmf, parseRtp, type RtpPacket, serializeDtmf, serializeRtp } from "./rtp-packet.ts";
export { FRAME_SAMPLES, type RtpPortRange, RtpSession, SAMPLE_RATE } from "./rtp-session.ts";
export { agreementFrom, createAnswer, createOffer, type MediaAgreement, parseSdp, type Sdp } from "./sdp.ts";
export type { IncomingRequest, StackOptions } from "./stack.ts";
export { SipStack } from "./stack.ts";
export { type Peer, peerKey, type TransportName } from "./transport.ts";
export { formatUri, type NameAddr, parseNameAddr, parseUri, type SipUri } from "./uri.ts";
export { UserAgent } from "./user-agent.ts";
