/** Spec §5 microphone checks, each failure with its own reason (and its own message in the UI). */
export type MicrophoneProblem = "unsupported" | "denied" | "no_device" | "not_live" | "busy" | "constraints";

export class MicrophoneError extends Error {
  constructor(readonly problem: MicrophoneProblem) {
    super(`Microphone check failed: ${problem}`);
    this.name = "MicrophoneError";
  }
}

/** getUserMedia's error names (standard and older Chromium ones) with a problem other than "busy". */
const PROBLEM_BY_ERROR_NAME: Partial<Record<string, MicrophoneProblem>> = {
  NotAllowedError: "denied",
  SecurityError: "denied",
  PermissionDeniedError: "denied",
  NotFoundError: "no_device",
  DevicesNotFoundError: "no_device",
  OverconstrainedError: "constraints",
  ConstraintNotSatisfiedError: "constraints",
};

/**
 * Maps a getUserMedia rejection to the problem a user can act on. Anything unnamed here
 * (NotReadableError, TrackStartError, AbortError, …) means another app holds the device: "busy".
 */
export function classifyMediaError(error: unknown): MicrophoneProblem {
  const name = error instanceof Error || error instanceof DOMException ? error.name : "";
  return PROBLEM_BY_ERROR_NAME[name] ?? "busy";
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
  if (track?.readyState !== "live") {
    // Release whatever was opened, so the browser's recording indicator goes off.
    for (const t of stream.getTracks()) t.stop();
    throw new MicrophoneError(track ? "not_live" : "no_device");
  }
  return stream;
}
