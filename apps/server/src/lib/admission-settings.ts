import { z } from "zod";

/**
 * Admission control's settings (lib/admission.ts): when this process stops taking new calls. The
 * defaults come from measuring browser calls on a 2-core machine with a CPU hog on one core
 * (bench/admission.bench.ts): audio stays whole while the event loop's p99 delay stays under
 * about 50 ms and its utilisation under about 0.8.
 */
export const admissionVariables = {
  /**
   * on: new calls are refused with "busy" while the process is saturated; off: never. Unset, it is
   * on, except under NODE_ENV=test: a test worker runs many apps and an embedded database on one
   * event loop of a shared machine, and would refuse its own calls at random (the admission tests
   * turn it on and feed it their own measurements).
   */
  ADMISSION_CONTROL: z.enum(["on", "off"], { error: "must be on or off" }).optional(),
  /** Event-loop delay p99 (ms, over the last seconds) at which new calls are refused. */
  ADMISSION_MAX_LAG_MS: z.coerce.number().int().min(5).max(10_000).default(50),
  /** Event-loop utilisation (0–1) that running calls plus one more may reach. */
  ADMISSION_MAX_LOAD: z.coerce.number().min(0.1).max(1).default(0.8),
  /** A fixed ceiling of calls on this process besides the measurements; 0: none. */
  ADMISSION_MAX_CALLS: z.coerce.number().int().min(0).default(0),
};

const admissionEnv = z.object(admissionVariables);
type AdmissionEnv = z.infer<typeof admissionEnv>;

export interface AdmissionSettings {
  enabled: boolean;
  maxLagMs: number;
  maxLoad: number;
  /** null: no fixed ceiling. */
  maxCalls: number | null;
}

export function pickAdmission(env: AdmissionEnv, nodeEnv: string): AdmissionSettings {
  return {
    enabled: (env.ADMISSION_CONTROL ?? (nodeEnv === "test" ? "off" : "on")) === "on",
    maxLagMs: env.ADMISSION_MAX_LAG_MS,
    maxLoad: env.ADMISSION_MAX_LOAD,
    maxCalls: env.ADMISSION_MAX_CALLS === 0 ? null : env.ADMISSION_MAX_CALLS,
  };
}
