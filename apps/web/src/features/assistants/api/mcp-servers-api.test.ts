import { describe, expect, it } from "vitest";
import { serversOf } from "./mcp-servers-api.ts";

describe("tool server lists", () => {
  it("drop entries without an id (spec §5)", () => {
    const body = {
      mcp_servers: [
        { id: "s1", name: "Docs", url: "http://127.0.0.1:1/mcp", description: "" },
        { name: "Broken", url: "http://127.0.0.1:2/mcp" },
        null,
      ],
    };
    expect(serversOf(body).map((s) => s.name)).toEqual(["Docs"]);
  });

  it("read a missing list as empty", () => {
    expect(serversOf({})).toEqual([]);
    expect(serversOf(undefined)).toEqual([]);
  });
});
