import { describe, expect, it } from "vitest";
import { originsOf, parseOriginList } from "./origin-list.ts";

describe("the allowed-sites box", () => {
  it("takes one site per line or comma-separated, trimming the spaces around each", () => {
    const entries = parseOriginList("  https://a.example  ,https://b.example\r\n\n\t https://C.example/ \n,");
    expect(entries.map((entry) => entry.problem)).toEqual([null, null, null]);
    expect(originsOf(entries)).toEqual(["https://a.example", "https://b.example", "https://c.example"]);
  });

  it("keeps a site with a space inside as one site, refused for the space", () => {
    expect(parseOriginList("https://shop example.com")).toEqual([
      { text: "https://shop example.com", origin: null, problem: "spaces" },
    ]);
    // Two sites typed on one line are not silently turned into two allowed sites either.
    const line = parseOriginList("https://a.example https://b.example\nhttps://c.example");
    expect(line.map((entry) => [entry.text, entry.problem])).toEqual([
      ["https://a.example https://b.example", "spaces"],
      ["https://c.example", null],
    ]);
    expect(originsOf(line)).toEqual(["https://c.example"]);
  });

  it("gives each site its own verdict, and saves a repeated site once", () => {
    const entries = parseOriginList(
      [
        "https://ok.example",
        "https://*.example.com",
        "ftp://files.example",
        "https://ok.example/",
        "x".repeat(201),
      ].join("\n"),
    );
    expect(entries.map((entry) => entry.problem)).toEqual([null, "wildcard", "notOrigin", null, "notOrigin"]);
    expect(originsOf(entries)).toEqual(["https://ok.example"]);
  });

  it("reads an empty box as no site", () => {
    expect(parseOriginList(" \n , \n")).toEqual([]);
  });
});
