import type { MicrophoneProblem } from "./texts.ts";

export class MicrophoneError extends Error {
  constructor(readonly problem: MicrophoneProblem) {
    super(problem);
  }
}

const PROBLEM_BY_NAME: Record<string, MicrophoneProblem> = {
  NotAllowedError: "denied",
  SecurityError: "denied",
  PermissionDeniedError: "denied",
  NotFoundError: "no_device",
  DevicesNotFoundError: "no_device",
  OverconstrainedError: "constraints",
  ConstraintNotSatisfiedError: "constraints",
};

/** Opens the microphone with echo cancellation, or throws a MicrophoneError naming what to fix. */
export async function openMicrophone(): Promise<MediaStream> {
  const media = navigator.mediaDevices;
  if (!media?.getUserMedia) throw new MicrophoneError("unsupported");
  let stream: MediaStream;
  try {
    stream = await media.getUserMedia({
      audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 },
    });
  } catch (error) {
    const name = error instanceof Error || error instanceof DOMException ? error.name : "";
    throw new MicrophoneError(PROBLEM_BY_NAME[name] ?? "busy");
  }
  const track = stream.getAudioTracks()[0];
  if (track?.readyState !== "live") {
    for (const t of stream.getTracks()) t.stop();
    throw new MicrophoneError(track ? "not_live" : "no_device");
  }
  return stream;
}
