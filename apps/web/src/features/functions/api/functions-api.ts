import type {
  CreateFunctionBody,
  FunctionTestResult,
  MessageResponse,
  ToolFunction,
  UpdateFunctionBody,
} from "@parley/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";

export const functionsQuery = () =>
  queryOptions({ queryKey: ["functions"], queryFn: () => api.request<ToolFunction[]>("/functions") });

export const createFunction = (body: CreateFunctionBody) =>
  api.request<ToolFunction>("/functions", { method: "POST", body });
export const updateFunction = (id: string, body: UpdateFunctionBody) =>
  api.request<ToolFunction>(`/functions/${id}`, { method: "PATCH", body });
export const deleteFunction = (id: string) => api.request<MessageResponse>(`/functions/${id}`, { method: "DELETE" });
export const testFunction = (id: string, args: Record<string, unknown>) =>
  api.request<FunctionTestResult>(`/functions/${id}/test`, { method: "POST", body: { arguments: args } });
