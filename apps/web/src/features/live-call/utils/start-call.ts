/**
 * The start order of spec §4 — validate the assistant id, check the microphone, request the call
 * (which returns the room), fetch the room token — with the §5 messages. Kept free of React and
 * of the network so each rule is unit-tested.
 */

export interface StartedRoom {
  name: string;
}

export interface CallStartDeps {
  openMicrophone(): Promise<MediaStream>;
  startCall(assistantId: string): Promise<{ room?: StartedRoom | null; call_id?: string } | undefined>;
  roomToken(
    roomName: string,
    identity: string,
    name: string,
  ): Promise<{ accessToken?: string; result?: string; message?: string; url?: string } | undefined>;
}

export interface PreparedCall {
  microphone: MediaStream;
  room: StartedRoom;
  callId: string | undefined;
  accessToken: string;
  /** WebSocket path of the realtime endpoint. */
  url: string;
}

export const CALL_ERRORS = {
  assistantRequired: "Assistant ID is required",
  noRoom: "No room information received from call response",
  noToken: "Access token not found in response.",
} as const;

/** A random identity for the browser participant (spec §7: anonymous identity is random). */
export const randomIdentity = () => `user-${crypto.randomUUID().slice(0, 8)}`;

export async function prepareCall(
  assistantId: string | undefined,
  deps: CallStartDeps,
  participant: { identity: string; name?: string } = { identity: randomIdentity() },
): Promise<PreparedCall> {
  if (!assistantId) throw new Error(CALL_ERRORS.assistantRequired);
  const microphone = await deps.openMicrophone();
  try {
    const started = await deps.startCall(assistantId);
    const room = started?.room;
    if (!room?.name) throw new Error(CALL_ERRORS.noRoom);
    const token = await deps.roomToken(room.name, participant.identity, participant.name || "User");
    if (token?.result === "error") throw new Error(token.message || CALL_ERRORS.noToken);
    if (!token?.accessToken) throw new Error(CALL_ERRORS.noToken);
    return {
      microphone,
      room,
      callId: started?.call_id,
      accessToken: token.accessToken,
      url: token.url || "/api/v1/realtime",
    };
  } catch (error) {
    for (const track of microphone.getTracks()) track.stop();
    throw error;
  }
}
