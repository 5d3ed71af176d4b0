// CPU profiles of a bench's own process (the server runs in it), for Chrome DevTools' Performance
// panel or a self-time summary: `startProfiler()` at a step, `stop(fromUs)` keeps the samples from
// the moment measured on (the profiler's own start-up holds the thread ≈200 ms).
import { Session } from "node:inspector/promises";

export interface Profiler {
  /** The profile from `fromUs` (the monotonic clock of process.hrtime, in µs) on. */
  stop(fromUs: number): Promise<object>;
}

interface CpuProfile {
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** Drops the samples taken before `fromUs` (V8 stamps them on the clock process.hrtime reads). */
function profileFrom(profile: CpuProfile, fromUs: number): CpuProfile {
  let at = profile.startTime;
  let first = profile.samples.length;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= fromUs) {
      first = i;
      break;
    }
  }
  const timeDeltas = profile.timeDeltas.slice(first);
  if (timeDeltas.length > 0) timeDeltas[0] = 0;
  return { ...profile, startTime: at, samples: profile.samples.slice(first), timeDeltas };
}

export async function startProfiler(): Promise<Profiler> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 500 });
  await session.post("Profiler.start");
  return {
    async stop(fromUs) {
      const { profile } = await session.post("Profiler.stop");
      session.disconnect();
      return profileFrom(profile as CpuProfile, fromUs);
    },
  };
}
