import { beforeEach, describe, expect, it, vi } from "vitest";

const request = vi.fn();
vi.mock("../lib/http-client.ts", () => ({ api: { request: (...args: unknown[]) => request(...args) } }));

const { createMcpServer, INVALID_SERVER_DATA, mcpServersQuery, serversOf, updateMcpServer } = await import(
  "./mcp-servers.ts"
);

const server = {
  id: "s1",
  name: "Docs",
  description: "",
  url: "http://127.0.0.1:1/mcp",
  timeout: 30,
  headers: {},
  transport: "auto",
  created_at: "2026-01-01T00:00:00Z",
  updated_at: "2026-01-01T00:00:00Z",
};
const body = { name: "Docs", description: "", url: server.url, timeout: 30, headers: {}, transport: "auto" as const };

beforeEach(() => request.mockReset());

describe("tool server API (spec §5)", () => {
  it("asks for the first 100 servers and drops entries without an id", async () => {
    request.mockResolvedValue({ mcp_servers: [server, { ...server, id: "" }, { name: "No id" }], total: 3 });
    const queryFn = mcpServersQuery("w1").queryFn as () => Promise<unknown[]>;
    expect(await queryFn()).toEqual([server]);
    expect(request).toHaveBeenCalledWith("/mcp-servers", { query: { skip: 0, limit: 100 } });
  });

  it("returns the created or updated server", async () => {
    request.mockResolvedValue({ mcp_server: server });
    expect(await createMcpServer(body)).toEqual(server);
    expect(await updateMcpServer("s1", body)).toEqual(server);
    expect(request).toHaveBeenLastCalledWith("/mcp-servers/s1", { method: "PUT", body });
  });

  it("rejects a create or update answer without an id", async () => {
    request.mockResolvedValue({ mcp_server: { ...server, id: undefined } });
    await expect(createMcpServer(body)).rejects.toThrow(INVALID_SERVER_DATA);
    request.mockResolvedValue({});
    await expect(updateMcpServer("s1", body)).rejects.toThrow("Invalid server data received from API");
  });
});

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
