/** Spec §5 microphone checks, each failure with its own reason (and its own message in the UI). */
export type MicrophoneProblem = "unsupported" | "denied" | "no_device" | "not_live" | "busy" | "constraints";

export class MicrophoneError extends Error {
  constructor(readonly problem: MicrophoneProblem) {
    super(`Microphone check failed: ${problem}`);
    this.name = "MicrophoneError";
  }
}

/** Maps a getUserMedia rejection to the problem a user can act on. */
export function classifyMediaError(error: unknown): MicrophoneProblem {
  const name = error instanceof Error || error instanceof DOMException ? error.name : "";
  switch (name) {
    case "NotAllowedError":
    case "SecurityError":
    case "PermissionDeniedError":
      return "denied";
    case "NotFoundError":
    case "DevicesNotFoundError":
      return "no_device";
    case "NotReadableError":
    case "TrackStartError":
    case "AbortError":
      return "busy";
    case "OverconstrainedError":
    case "ConstraintNotSatisfiedError":
      return "constraints";
    default:
      return "busy";
  }
}

/** Opens the microphone with echo cancellation, or throws a MicrophoneError saying why not. */
export async function openMicrophone(
  media: MediaDevices | undefined = globalThis.navigator?.mediaDevices,
): Promise<MediaStream> {
  if (!media?.getUserMedia) throw new MicrophoneError("unsupported");
  let stream: MediaStream;
  try {
    stream = await media.getUserMedia({
      audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 },
    });
  } catch (error) {
    throw new MicrophoneError(classifyMediaError(error));
  }
  const track = stream.getAudioTracks()[0];
  if (!track) throw new MicrophoneError("no_device");
  if (track.readyState !== "live") {
    for (const t of stream.getTracks()) t.stop();
    throw new MicrophoneError("not_live");
  }
  return stream;
}
