import { z } from "zod";

export const MCP_TRANSPORTS = ["auto", "streamable-http", "sse"] as const;

export const McpServerBody = z.object({
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(1000).nullable().optional(),
  url: z.url(),
  timeout: z.number().int().min(1).max(300),
  headers: z.record(z.string(), z.string()),
  transport: z.enum(MCP_TRANSPORTS),
});
export type McpServerBody = z.infer<typeof McpServerBody>;

export interface McpServer extends McpServerBody {
  id: string;
  created_at: string;
  updated_at: string;
}

export interface McpTool {
  name: string;
  description?: string | null;
  input_schema?: Record<string, unknown>;
}
