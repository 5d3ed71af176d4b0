import { describe, expect, it } from "vitest";
import { childrenNamed, parseXml, textOf, type XmlNode } from "../testing/parse-xml.ts";
import { sampleRun } from "../testing/sample-runs.ts";
import { callLogUrl, junitXml } from "./junit.ts";
import { element, escapeAttribute, escapeText, renderDocument } from "./xml.ts";

const URL_BASE = "https://parley.example.com";

function only(node: XmlNode, name: string): XmlNode {
  const found = childrenNamed(node, name);
  expect(found, `one <${name}> in <${node.name}>`).toHaveLength(1);
  return found[0] as XmlNode;
}

function suiteOf(xml: string): XmlNode {
  const root = parseXml(xml);
  expect(root.name).toBe("testsuites");
  return only(root, "testsuite");
}

describe("junitXml", () => {
  const run = sampleRun(
    [
      { name: "Books a table", attempts: ["passed"], callId: "c1111111-1111-4111-8111-111111111111" },
      {
        name: "Refund flow",
        attempts: ["failed"],
        failures: [
          { type: "rubric", label: "Rubric: offers a refund", reason: "The assistant never mentioned a refund." },
          { type: "latency", label: "p95 latency under 1500 ms", reason: "p95 was 2300 ms." },
        ],
      },
      { name: "Transfers to a human", attempts: ["error"], error: "The judge model could not answer: HTTP 500" },
      { name: "Never ran", attempts: ["cancelled"], callId: null },
    ],
    { suite_name: "Bookings" },
  );
  const suite = suiteOf(junitXml(run, URL_BASE));
  const cases = childrenNamed(suite, "testcase");

  it("is one <testsuite> named after the suite, with its counts and time", () => {
    expect(suite.attributes).toMatchObject({
      name: "Bookings",
      tests: "4",
      failures: "1",
      errors: "1",
      skipped: "1",
      time: "30.500",
    });
    const properties = childrenNamed(only(suite, "properties"), "property");
    const values = properties.map((p) => [p.attributes.name, p.attributes.value]);
    expect(values).toContainEqual(["parley.run_id", run.id]);
    expect(values).toContainEqual([
      "parley.run_url",
      `${URL_BASE}/assistants/${run.agent_id}/tests/${run.suite_id}/runs/${run.id}`,
    ]);
  });

  it("has one <testcase> per result, classname the suite", () => {
    expect(cases.map((c) => [c.attributes.name, c.attributes.classname, c.attributes.time])).toEqual([
      ["Books a table", "Bookings", "12.500"],
      ["Refund flow", "Bookings", "12.500"],
      ["Transfers to a human", "Bookings", "12.500"],
      ["Never ran", "Bookings", "0.000"],
    ]);
  });

  it("leaves a passing case without a verdict, with its call and the call log's link", () => {
    const [passed] = cases as [XmlNode];
    expect(childrenNamed(passed, "failure")).toHaveLength(0);
    expect(childrenNamed(passed, "error")).toHaveLength(0);
    const out = textOf(only(passed, "system-out"));
    expect(out).toContain("Call: c1111111-1111-4111-8111-111111111111");
    expect(out).toContain(`Call log: ${URL_BASE}/call-logs?call=c1111111-1111-4111-8111-111111111111`);
  });

  it("names the first failed expectation in <failure> and every one in its body", () => {
    const failure = only(cases[1] as XmlNode, "failure");
    expect(failure.attributes).toEqual({ message: "Rubric: offers a refund", type: "rubric" });
    expect(textOf(failure)).toBe(
      "Rubric: offers a refund: The assistant never mentioned a refund.\np95 latency under 1500 ms: p95 was 2300 ms.",
    );
  });

  it("reports a result that could not run or be judged as <error>, a cancelled one as <skipped>", () => {
    const error = only(cases[2] as XmlNode, "error");
    expect(error.attributes.message).toBe("The judge model could not answer: HTTP 500");
    const cancelled = cases[3] as XmlNode;
    expect(only(cancelled, "skipped").attributes.message).toBe("Cancelled before it finished");
    expect(childrenNamed(cancelled, "system-out")).toHaveLength(0);
  });

  it("puts the attempt in each name when the run repeats cases", () => {
    const repeated = sampleRun([{ name: "Books a table", attempts: ["passed", "failed"] }]);
    const names = childrenNamed(suiteOf(junitXml(repeated, URL_BASE)), "testcase").map((c) => c.attributes.name);
    expect(names).toEqual(["Books a table (attempt 1 of 2)", "Books a table (attempt 2 of 2)"]);
  });

  it("stays well-formed and keeps the text whatever a case's name and a judge's reason hold", () => {
    const nasty = `Say "hi" & <bye> 'now' ]]> tab\there\r\nnew line — café 日本 🎉 bell\u0007 nul\u0000 lone\ud800 end`;
    const hostile = sampleRun(
      [{ name: nasty, attempts: ["failed"], failures: [{ type: "rubric", label: nasty, reason: nasty }] }],
      { suite_name: `Suite <"${nasty}">` },
    );
    const xml = junitXml(hostile, URL_BASE);
    const parsed = suiteOf(xml);
    const [testcase] = childrenNamed(parsed, "testcase") as [XmlNode];
    const readable = nasty.replace("\u0007", "\\u0007").replace("\u0000", "\\u0000").replace("\ud800", "\\ud800");
    expect(parsed.attributes.name).toBe(`Suite <"${readable}">`);
    expect(testcase.attributes.name).toBe(readable);
    const failure = only(testcase, "failure");
    expect(failure.attributes.message).toBe(readable);
    expect(textOf(failure)).toBe(`${readable}: ${readable}`);
    expect(xml).toContain("café 日本 🎉");
  });
});

describe("XML escaping", () => {
  it("escapes markup in text and quotes and whitespace in attributes", () => {
    expect(escapeText(`a < b && c > "d"`)).toBe(`a &lt; b &amp;&amp; c &gt; "d"`);
    expect(escapeAttribute(`"it's"\n\t<x>`)).toBe("&quot;it&apos;s&quot;&#10;&#9;&lt;x&gt;");
  });

  it("writes characters XML cannot hold as visible escapes", () => {
    expect(escapeText("a\u0001b\u001fc\ufffe")).toBe("a\\u0001b\\u001fc\\ufffe");
  });

  it("round-trips through the strict reader", () => {
    const text = `x="1" & y<2 \u{1F600}`;
    const doc = renderDocument(element("a", { v: text }, [element("b", {}, [text])]));
    const root = parseXml(doc);
    expect(root.attributes.v).toBe(text);
    expect(textOf(only(root, "b"))).toBe(text);
  });
});

describe("the strict reader (what makes the checks above mean something)", () => {
  it.each([
    ["<a><b></a>", "closes"],
    ["<a x=1/>", "quoted"],
    ['<a x="1" x="2"/>', "duplicate"],
    ["<a>1 < 2</a>", "expected a name"],
    ["<a>fish & chips</a>", "reference"],
    ["<a>\u0007</a>", "not allowed"],
    ["<a/><b/>", "after the root"],
    ["<a>&#0;</a>", "names no XML character"],
  ])("refuses %j", (xml, message) => {
    expect(() => parseXml(xml)).toThrow(message);
  });

  it("links a call log the way the web app opens it", () => {
    expect(callLogUrl("http://127.0.0.1:3000/parley", "id 1&2")).toBe(
      "http://127.0.0.1:3000/parley/call-logs?call=id+1%262",
    );
  });
});
