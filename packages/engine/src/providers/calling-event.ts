// Declared beside the adapters that decode it (a messaging platform's calling webhook), so a vendor
// folder need not import webrtc/, which loads the adapters; webrtc/types.ts re-exports it.

/** A webhook event about a call, decoded. Numbers are E.164 ("+" and digits). */
export type CallingEvent =
  | {
      type: "connect";
      callId: string;
      numberId: string;
      /** The business number the event is for. */
      businessNumber: string;
      from: string;
      to: string;
      /** The caller's SDP offer. */
      sdp: string;
      callerName: string | null;
    }
  | {
      type: "terminate";
      callId: string;
      numberId: string;
      businessNumber: string;
      from: string;
      to: string;
      status: string | null;
      durationSeconds: number | null;
    };
