import type { ToolFunction } from "@parley/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";

export const fetchAssistantFunctions = (assistantId: string) =>
  api.request<ToolFunction[]>(`/functions/agent/${assistantId}`);

/** The workspace's functions to pick from (under this feature's own key: it never invalidates others'). */
export const functionOptionsQuery = () =>
  queryOptions({
    queryKey: ["assistants", "function-options"],
    queryFn: () => api.request<ToolFunction[]>("/functions"),
  });

export const assistantFunctionsQuery = (assistantId: string) =>
  queryOptions({
    queryKey: ["assistants", "detail", assistantId, "functions"],
    queryFn: () => fetchAssistantFunctions(assistantId),
  });

export const assignFunction = (agentId: string, functionId: string) =>
  api.request("/functions/assign", { method: "POST", body: { agent_id: agentId, function_id: functionId } });

export const unassignFunction = (agentId: string, functionId: string) =>
  api.request("/functions/unassign", { method: "POST", body: { agent_id: agentId, function_id: functionId } });
