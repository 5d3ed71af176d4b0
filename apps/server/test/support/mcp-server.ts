import { createServer, type Server as HttpServer } from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { listenOnLoopback } from "./loopback.ts";

/** One tool a test MCP server offers: its name, and what it answers for given arguments. */
export interface TestTool {
  name: string;
  description: string;
  answer(args: Record<string, unknown>): string;
}

function mcpServer(tools: TestTool[], calls: { name: string; args: Record<string, unknown> }[]): Server {
  const server = new Server({ name: "parley-test", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: { type: "object" as const } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const args = request.params.arguments ?? {};
    calls.push({ name: request.params.name, args });
    const tool = tools.find((t) => t.name === request.params.name);
    if (!tool) return { content: [{ type: "text" as const, text: "no such tool" }], isError: true };
    return { content: [{ type: "text" as const, text: tool.answer(args) }] };
  });
  return server;
}

/**
 * A stateless Streamable HTTP MCP server on 127.0.0.1 (a fresh protocol server per request, as the
 * SDK's stateless mode expects), recording each tool call.
 */
export async function startMcpServer(tools: TestTool[]) {
  const calls: { name: string; args: Record<string, unknown> }[] = [];
  const http: HttpServer = createServer(async (req, res) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = mcpServer(tools, calls);
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  const { origin, close } = await listenOnLoopback(http);
  return { url: `${origin}/mcp`, calls, close };
}
