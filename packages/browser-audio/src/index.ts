/**
 * The browser side of a call's audio, one copy for the web app's live call and the embeddable
 * widget: the server speaks 16 kHz mono s16le in 20 ms frames.
 */
export { type AudioIo, createAudioIo } from "./audio-io.ts";
export { classifyMediaError, MicrophoneError, type MicrophoneProblem, openMicrophone } from "./microphone.ts";
export { CALL_SAMPLE_RATE, createDownsampler, floatToInt16, int16ToFloat, rms } from "./pcm.ts";
export { foldTranscript, type TranscriptLine, type TranscriptUpdate } from "./transcript.ts";
