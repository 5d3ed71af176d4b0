import type {
  ActiveRoom,
  CallChannel,
  CallDirection,
  CallEndReason,
  CallLog,
  CallLogPage,
  CallLogsQuery,
  CallStatus,
  RealtimeServerMessage,
  RoomParticipant,
  TurnMetricsEntry,
} from "@parley/contract";
import type { CallEvent } from "@parley/engine";
import type { FastifyBaseLogger } from "fastify";
import type { z } from "zod";
import type { TenantScope } from "./tenant-scope.ts";

/**
 * The port of the call runtime (modules/calls builds it, create-context.ts holds it as ctx.calls):
 * what every channel — browser, phone, SIP, messaging app, widget, campaign — gets to run a live
 * call. Declared here, below the modules, so the context can name it without importing one.
 */

/** One caller's connection, whatever carries it (the browser WebSocket, a phone media stream, SIP RTP, a messaging app's WebRTC call). */
export interface CallTransport {
  send(message: RealtimeServerMessage): void;
  /** 20 ms of assistant audio, 16-bit mono PCM at 16 kHz. */
  sendAudio(pcm: Int16Array): void;
  /** The call has ended (its reason given); a phone leg still up is hung up here, unless it was transferred. */
  close(code: number, reason: string): void;
  /**
   * Every engine event, for what a telephone does and a browser does not: barge-in clears audio
   * queued at the carrier, a transfer moves the call, DTMF is played to the far end. `report` adds a
   * problem (a refused transfer) to the call's log. The browser transport leaves this out.
   */
  control?(event: CallEvent, report: (problem: string) => void): void;
}

/** Where a call comes from: what the log records, what the model is told and what the minutes cost. */
export interface CallOrigin {
  channel: CallChannel;
  direction: CallDirection;
  /** E.164, SIP URI or extension of the calling side; null for browser calls. */
  from: string | null;
  /** The number called. */
  to: string | null;
  /** USD per minute the carrier charges (the vendor descriptor's telephony price); 0 off the phone network. */
  telephonyPerMinute: number;
  /** A test call's line (channel `test`): the model is told what a real caller on that line would be. */
  testLine?: "browser" | "phone";
}

/** A running call, as its transport drives it. */
export interface LiveCall {
  pushAudio(pcm: Int16Array): void;
  pushText(text: string): void;
  pushDtmf(digit: string): void;
  hangup(reason: CallEndReason): Promise<void>;
}

export interface Participant {
  identity: string;
  name: string;
  kind: RoomParticipant["kind"];
  joinedAt: Date;
}

/** What a room needs from the call running in it. */
export interface LiveCallHandle {
  /** Ends the call (participant removed, server shutting down); resolves once it is persisted. */
  end(reason: CallEndReason): Promise<void>;
}

/** A call's room (spec §3): it exists from the call's start until the call ends. */
export interface Room {
  name: string;
  workspaceId: string;
  agentId: string;
  agentName: string;
  callId: string;
  channel: CallChannel;
  createdAt: Date;
  /** Per-call values for the assistant's {{placeholders}} (a campaign contact's first_name, …). */
  variables: Record<string, string>;
  /** Changes are written through to the room's row (callers set and delete entries directly). */
  participants: Map<string, Participant>;
  /** Set while a caller is connected and the call runs. */
  call: LiveCallHandle | null;
  joinTimer: NodeJS.Timeout | null;
}

export interface NewRoom {
  workspaceId: string;
  agentId: string;
  agentName: string;
  callId: string;
  createdAt: Date;
  /** "web" unless said otherwise. */
  channel?: CallChannel;
  variables?: Record<string, string>;
}

/** A room another live process holds, as its row in live_rooms reads. */
export interface HeldElsewhere {
  name: string;
  ownerId: string;
  callId: string;
  workspaceId: string;
  /** The holder's routing key (NODE_ID), when it routes sockets. */
  nodeId: string | null;
}

/** Where a room of the workspace is: held by this process, or by another live one. */
export type RoomLocation = { held: "here"; room: Room } | { held: "elsewhere"; row: HeldElsewhere };

/** What a removal came to; `no_answer` when the holding process did not answer in time. */
export type RemovalOutcome = "removed" | "room_not_found" | "participant_not_found" | "no_answer";

/** The rooms of the calls: this process's in memory, every live process's through the database. */
export interface Rooms {
  /** This process's id in live_rooms.owner_id: one per runtime, so test apps in one process stay apart. */
  readonly processId: string;
  /** Registers the room of a call whose log (and concurrency slot) already exists. */
  create(input: NewRoom): Room;
  get(name: string): Room | undefined;
  /** A room of this workspace held here, or undefined (another workspace's room is not found either). */
  find(workspaceId: string, name: string): Room | undefined;
  all(): Room[];
  remove(room: Room): void;
  /** The workspace's rooms on every live process. */
  listAll(workspaceId: string): Promise<ActiveRoom[]>;
  locate(workspaceId: string, name: string): Promise<RoomLocation | undefined>;
  /** Removing either side of a call, wherever it runs, ends it. */
  removeParticipant(workspaceId: string, name: string, identity: string): Promise<RemovalOutcome>;
  /** The room of a call, taken over from the process holding it when nobody has joined it yet. */
  claim(workspaceId: string, which: { callId: string } | { room: string }): Promise<Room | undefined>;
  /**
   * Resolves once the room's row is in the database as written so far: a room's creator answers
   * only then, so the next request (a room token), which a balancer may send to any node, finds it.
   */
  written(name: string): Promise<void>;
  /** Resolves once every write-through queued so far has reached the database (shutdown, tests). */
  settled(): Promise<void>;
}

export interface CallMetrics {
  callStarted(channel: string): void;
  callEnded(channel: string, status: string, reason: string): void;
  turn(metrics: TurnMetricsEntry): void;
  /** A provider or tool failed in a live call; `action` is what the fault policy did. */
  fault(stage: string, provider: string, action: string): void;
}

/** The carrier of a phone call: who carried it, its id there, and the number it used. */
export interface CallCarrier {
  provider: string;
  providerCallId: string | null;
  phoneNumberId: string | null;
}

/** A call about to start on any channel: whose assistant, and where the caller is. */
export interface CallRequest {
  agentId: string;
  channel: CallChannel;
  direction: CallDirection;
  from?: string | null;
  to?: string | null;
  /** The campaign that placed it, if any. */
  batchCallId?: string | null;
  /** The test-suite run that placed it, if any (channel `test`). */
  testRunId?: string | null;
  /** The page origin of a widget call, kept in its log. */
  origin?: string | null;
  /** Who carries the call, when it is known before the room opens (an answered phone call). */
  carrier?: CallCarrier;
  /** Values for the assistant's {{placeholders}} on this call (a campaign contact's columns). */
  variables?: Record<string, string>;
  /** How long the room waits for its caller (a phone still ringing) before it frees its slot. */
  joinTimeoutMs?: number;
  /**
   * Who the caller is when the call has no number (a signed-in user's id on a browser call, a
   * widget visitor's key): an experiment assigns the same caller the same version every time.
   */
  callerKey?: string;
}

/** What a channel reads of a call's log: who carries it, from where to where, for which assistant. */
export interface CallRecord {
  id: string;
  workspaceId: string;
  status: CallStatus;
  agentId: string | null;
  direction: CallDirection;
  fromNumber: string | null;
  toNumber: string | null;
  provider: string | null;
  providerCallId: string | null;
  phoneNumberId: string | null;
}

export type CallLogFilters = Omit<CallLogsQuery, "page" | "items_per_page"> & { page: number; items_per_page: number };

/** The call-log queries channels need: they go through the runtime, the call-logs module stays its own. */
export interface CallState {
  /** Records who carries a call once the carrier has named it. */
  setCarrier(tenant: TenantScope, callId: string, carrier: CallCarrier): Promise<void>;
  find(tenant: TenantScope, callId: string): Promise<CallRecord | null>;
  /** A call by its carrier's id, across workspaces (status webhooks carry no user); a carrier id is one call. */
  findByCarrierId(provider: string, providerCallId: string): Promise<CallRecord | null>;
  /** The call's log as the API shows it; throws not found. */
  get(tenant: TenantScope, callId: string): Promise<CallLog>;
  list(tenant: TenantScope, filters: CallLogFilters): Promise<CallLogPage>;
  /**
   * Closes a call that never reached its assistant with the carrier's reason, only while it is still
   * queued, so a late callback never rewrites a call that ran. True when it closed the call.
   */
  closeUnconnected(
    tenant: TenantScope,
    callId: string,
    outcome: { status: "completed" | "failed"; endReason: string; endedAt: Date },
  ): Promise<boolean>;
  /** Marks a one-use token used, for every process; false when it already was. */
  claimToken(tokenId: string, expiresAt: Date): Promise<boolean>;
}

/** Who a signed grant is for: a browser joining a room, a carrier's media stream, a transfer's markup URL. */
export type GrantAudience = "room" | "stream" | "transfer";

/** The JWT claims of a grant; `sub` and `jti` are the registered ones a grant may carry. */
export type GrantClaims = Record<string, string | undefined>;

export interface CallRuntime {
  readonly rooms: Rooms;
  readonly metrics: CallMetrics;
  readonly state: CallState;
  readonly log: FastifyBaseLogger;
  /**
   * The key grants are signed with, derived once from the master secret: other secrets of a call
   * that must hold on every process sharing it (SIP digest nonces, widget visitor keys) use it too.
   */
  readonly key: Uint8Array;
  /** A short-lived signed token for `audience` carrying `claims` (HS256; each audience has its lifetime). */
  signGrant(audience: GrantAudience, claims: GrantClaims): Promise<string>;
  /** The claims of a valid, unexpired grant for `audience`, checked by `schema`; null when forged, expired or malformed. */
  verifyGrant<T>(audience: GrantAudience, schema: z.ZodType<T>, token: string): Promise<T | null>;
  /**
   * Every channel's way in: checks the providers' keys and the plan's minutes, takes one of the
   * workspace's concurrent-call slots by opening the call's log, and creates the room. Throws
   * AppError (429, 402/422) when the call may not start.
   */
  openCallRoom(tenant: TenantScope, request: CallRequest): Promise<Room>;
  /** Joins a caller to a room's call and starts its engine session; rejects (log closed as failed) when it cannot start. */
  startLiveCall(room: Room, caller: Participant, transport: CallTransport, origin?: CallOrigin): Promise<LiveCall>;
  /** Frees a room nobody joined and closes its log as failed (`reason` is its end reason). */
  expireRoom(room: Room, reason: string): Promise<void>;
  /** The room of a call held by this process. */
  roomOfCall(callId: string): Room | undefined;
  /** Starts keeping the calls alive across processes (heartbeats, room control); resolves to its stop. */
  serve(): Promise<() => Promise<void>>;
  /** Ends every call and frees every room (graceful shutdown). */
  endAll(): Promise<void>;
}
