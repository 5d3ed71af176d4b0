import { describe, expect, it } from "vitest";
import { StreamArrival } from "./stream-arrival.ts";

const RATE = 16_000;
const FRAME = 320; // 20 ms

describe("StreamArrival", () => {
  it("dates chunks handled on time when they were handled", () => {
    const arrival = new StreamArrival(RATE);
    for (let i = 1; i <= 50; i++) expect(arrival.arrivedAt(1000 + i * 20, FRAME)).toBe(1000 + i * 20);
  });

  it("dates a backlog the busy event loop handled at once when each chunk arrived", () => {
    const arrival = new StreamArrival(RATE);
    for (let i = 1; i <= 50; i++) arrival.arrivedAt(i * 20, FRAME);
    // The loop is held from 1000 to 1400 ms: the 20 chunks that came meanwhile are handled at 1400.
    const dated = Array.from({ length: 20 }, () => arrival.arrivedAt(1400, FRAME));
    expect(dated).toEqual(Array.from({ length: 20 }, (_, i) => 1020 + i * 20));
    // Back on time afterwards.
    expect(arrival.arrivedAt(1420, FRAME)).toBe(1420);
  });

  it("follows a sender that paused onto its later schedule", () => {
    const arrival = new StreamArrival(RATE);
    for (let i = 1; i <= 50; i++) arrival.arrivedAt(i * 20, FRAME);
    // Nothing is sent for 2 s (a muted microphone), then audio flows again in real time.
    const dated: number[] = [];
    for (let i = 1; i <= 30; i++) dated.push(arrival.arrivedAt(3000 + i * 20, FRAME));
    // Once the lag has lasted longer than a backlog would, chunks are dated when handled again.
    expect(dated.slice(-20)).toEqual(Array.from({ length: 20 }, (_, i) => 3220 + i * 20));
  });

  it("never dates a chunk after it was handled, or a chunk sent faster than real time before it", () => {
    const arrival = new StreamArrival(RATE);
    // A burst of two seconds at once (a client catching up) is dated as handled.
    for (let i = 0; i < 100; i++) expect(arrival.arrivedAt(500, FRAME)).toBe(500);
    expect(arrival.arrivedAt(510, FRAME)).toBeLessThanOrEqual(510);
  });
});
