import { describe, expect, it } from "vitest";
import { createResponse, cseqOf, parseMessage, type SipRequest, serializeMessage, splitList } from "./message.ts";

const invite = [
  "INVITE sip:1001@example.test SIP/2.0",
  "v: SIP/2.0/UDP 10.0.0.1:5062;branch=z9hG4bK1;rport, SIP/2.0/UDP 10.0.0.2;branch=z9hG4bK2",
  'From: "Alice" <sip:alice@example.test>;tag=a1',
  "To: <sip:1001@example.test>",
  "Call-ID: abc@host",
  "CSeq: 1 INVITE",
  "Subject: folded",
  " line",
  "Content-Type: application/sdp",
  "l: 4",
  "",
  "v=0\n",
].join("\r\n");

describe("SIP messages", () => {
  it("parses compact and folded headers, list headers and a body cut at Content-Length", () => {
    const message = parseMessage(Buffer.from(invite));
    expect(message.kind).toBe("request");
    const request = message as SipRequest;
    expect(request.method).toBe("INVITE");
    expect(request.headers.getAll("via")).toHaveLength(2);
    expect(request.headers.get("subject")).toBe("folded line");
    expect(request.body.toString()).toBe("v=0\n");
    expect(cseqOf(request)).toEqual({ seq: 1, method: "INVITE" });
  });

  it("round-trips and answers with the request's dialog headers and a To tag", () => {
    const request = parseMessage(Buffer.from(invite));
    if (request.kind !== "request") throw new Error("not a request");
    const again = parseMessage(serializeMessage(request));
    expect(again.headers.get("call-id")).toBe("abc@host");
    const response = createResponse(request, 180, { toTag: "b2" });
    const parsed = parseMessage(serializeMessage(response));
    expect(parsed.kind === "response" && parsed.status).toBe(180);
    expect(parsed.headers.get("to")).toBe("<sip:1001@example.test>;tag=b2");
    expect(parsed.headers.getAll("via")).toHaveLength(2);
  });

  it("splits lists outside quotes and angle brackets", () => {
    expect(splitList('"a, b" <sip:x@y;p=1,2>, <sip:z@w>')).toEqual(['"a, b" <sip:x@y;p=1,2>', "<sip:z@w>"]);
  });
});
