import { describe, expect, it } from "vitest";
import { SseParser } from "./sse-stream.ts";

describe("SseParser", () => {
  it("joins multi-line data, keeps event names and skips comments", () => {
    const parser = new SseParser();
    expect(parser.push(': keep-alive\n\nevent: message_start\ndata: {"a":\ndata: 1}\n\ndata: [DONE]\n\n')).toEqual([
      { event: "message_start", data: '{"a":\n1}' },
      { event: "message", data: "[DONE]" },
    ]);
  });

  it("handles events and CRLF line ends split anywhere across reads", () => {
    const text = "data: one\r\n\r\nevent: x\r\ndata: two\r\n\r\n";
    for (let cut = 1; cut < text.length; cut++) {
      const parser = new SseParser();
      const events = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))];
      expect(events, `cut at ${cut}`).toEqual([
        { event: "message", data: "one" },
        { event: "x", data: "two" },
      ]);
    }
  });

  it("ignores a blank line with no data and a field without a value", () => {
    const parser = new SseParser();
    expect(parser.push("\n\nretry\ndata\n\n")).toEqual([{ event: "message", data: "" }]);
  });
});
