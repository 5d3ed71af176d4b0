import pino from "pino";
import { describe, expect, it } from "vitest";
import { AdmissionGate, ServerBusyError } from "./admission.ts";
import { type LoadSample, SampleLog } from "./admission-probe.ts";
import type { AdmissionSettings } from "./admission-settings.ts";

const calm: LoadSample = { lagP99Ms: 2, lagMeanMs: 1, utilization: 0.1, audioMisses: 0 };
const settings: AdmissionSettings = { enabled: true, maxLagMs: 50, maxLoad: 0.8, maxCalls: null };

function gateWith(overrides: Partial<AdmissionSettings> = {}) {
  const load = new SampleLog();
  let running = 0;
  const gate = new AdmissionGate(
    { ...settings, ...overrides },
    { source: load, runningCalls: () => running, log: pino({ level: "silent" }) },
  );
  load.push(calm);
  return {
    gate,
    push: (sample: Partial<LoadSample>, ticks = 1) => {
      for (let i = 0; i < ticks; i++) load.push({ ...calm, ...sample });
    },
    setRunning: (n: number) => {
      running = n;
    },
  };
}

const refusal = (gate: AdmissionGate) => {
  try {
    gate.admit("web");
    return null;
  } catch (error) {
    if (error instanceof ServerBusyError) return error.reason;
    throw error;
  }
};

describe("admission gate", () => {
  it("admits a burst of offers only up to the load limit before their load shows", () => {
    const { gate } = gateWith();
    let admitted = 0;
    while (refusal(gate) === null) admitted += 1;
    // 0.1 in use, 0.012 a call before any is measured: (0.8 − 0.1) / 0.012 = 58 places.
    expect(admitted).toBe(58);
    expect(refusal(gate)).toBe("load");
  });

  it("gives back the place of a call that did not start", () => {
    const { gate } = gateWith({ maxLoad: 0.1 + 0.012 * 2 - 0.001 });
    const first = gate.admit("web");
    expect(refusal(gate)).toBe("load");
    first.release();
    expect(refusal(gate)).toBeNull();
  });

  it("stops counting settled calls in full once the probe can see them", () => {
    const { gate, push, setRunning } = gateWith({ maxLoad: 0.2 });
    while (refusal(gate) === null);
    setRunning(8);
    // The calls run and show in the utilisation: 8 calls at 0.01 over a 0.1 base.
    push({ utilization: 0.18 }, 7);
    expect(refusal(gate)).toBe("load");
    push({ utilization: 0.15 }, 7);
    expect(refusal(gate)).toBeNull();
  });

  it("is not made busy by one stall, but by lag that lasts", () => {
    const { gate, push, setRunning } = gateWith();
    setRunning(1);
    push({ lagP99Ms: 120 });
    expect(gate.status().state).toBe("open");
    push({ lagP99Ms: 80 });
    expect(gate.status().state).toBe("busy");
    expect(refusal(gate)).toBe("event_loop_lag");
  });

  it("stays busy until the loop has been calm for three seconds (hysteresis)", () => {
    const { gate, push, setRunning } = gateWith();
    setRunning(1);
    push({ lagP99Ms: 80 }, 2);
    push({ lagP99Ms: 30 }, 6); // under the limit but not under half of it: not calm
    expect(gate.status().state).toBe("busy");
    push({}, 5);
    expect(gate.status().state).toBe("busy");
    push({}, 1);
    expect(gate.status().state).toBe("open");
  });

  it("is made busy by audio deadline misses before the lag shows", () => {
    const { gate, push, setRunning } = gateWith();
    setRunning(1);
    // One stall: every running call reports its late frame at once. Not yet saturation.
    push({ audioMisses: 100 });
    expect(gate.status().state).toBe("open");
    push({ audioMisses: 1 });
    expect(refusal(gate)).toBe("audio_deadline_misses");
  });

  it("learns a call's share from the calls running", () => {
    const { gate, push, setRunning } = gateWith();
    setRunning(20);
    push({ utilization: 0.1 }, 20);
    expect(gate.status().perCallLoad).toBeLessThan(0.006);
    setRunning(20);
    push({ utilization: 0.7 }, 20);
    expect(gate.status().perCallLoad).toBeGreaterThan(0.03);
  });

  it("takes the first call whatever the figures say: with no call running there is nothing to protect", () => {
    const { gate, push, setRunning } = gateWith();
    push({ lagP99Ms: 400, utilization: 0.99 }, 4);
    expect(refusal(gate)).toBeNull();
    // That call now settles: the next offer is judged by the figures.
    expect(refusal(gate)).toBe("event_loop_lag");
    setRunning(1);
    expect(refusal(gate)).toBe("event_loop_lag");
  });

  it("holds a fixed ceiling of calls when one is set", () => {
    const { gate, setRunning } = gateWith({ maxCalls: 3 });
    setRunning(2);
    expect(refusal(gate)).toBeNull();
    setRunning(3);
    expect(refusal(gate)).toBe("max_calls");
  });

  it("admits everything when turned off", () => {
    const { gate, push } = gateWith({ enabled: false });
    push({ lagP99Ms: 500, audioMisses: 10 }, 4);
    expect(refusal(gate)).toBeNull();
    expect(gate.status().state).toBe("off");
  });
});
