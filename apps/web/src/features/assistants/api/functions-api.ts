import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";

/** What the assistant editor reads of a workspace function. */
export interface FunctionSummary {
  id: string;
  name: string;
  description?: string;
}

/** Lists may come bare or wrapped; the editor only needs the entries. */
function entries(body: unknown, key: string): FunctionSummary[] {
  const list = Array.isArray(body) ? body : (body as Record<string, unknown> | undefined)?.[key];
  return Array.isArray(list) ? (list as FunctionSummary[]).filter((f) => typeof f?.id === "string") : [];
}

export const fetchAssistantFunctions = async (assistantId: string) =>
  entries(await api.request<unknown>(`/functions/agent/${assistantId}`), "functions");

export const functionOptionsQuery = () =>
  queryOptions({
    queryKey: ["assistants", "function-options"],
    queryFn: async () => entries(await api.request<unknown>("/functions"), "functions"),
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
