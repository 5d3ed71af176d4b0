import type { Assistant, CreateAssistantBody, UpdateAssistantBody } from "@parley/contract";
import { queryOptions } from "@tanstack/react-query";
import { ApiError, api } from "../../../lib/http-client.ts";
import { visibleAssistants } from "../utils/assistant-list.ts";
import { fetchAssistantFunctions, unassignFunction } from "./functions-api.ts";

/** Every query this feature owns starts with "assistants", so its mutations invalidate only these. */
export const assistantKeys = {
  all: ["assistants"] as const,
  list: () => ["assistants", "list"] as const,
  detail: (id: string) => ["assistants", "detail", id] as const,
};

/** GET /agents: a 404 means "none yet" and temp assistants are hidden (spec §7, §8). */
export async function fetchAssistants(): Promise<Assistant[]> {
  try {
    return visibleAssistants(await api.request<Assistant[]>("/agents"));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

export const assistantsQuery = () => queryOptions({ queryKey: assistantKeys.list(), queryFn: fetchAssistants });

export const assistantQuery = (id: string) =>
  queryOptions({ queryKey: assistantKeys.detail(id), queryFn: () => api.request<Assistant>(`/agents/${id}`) });

export const createAssistant = (body: CreateAssistantBody) =>
  api.request<Assistant>("/agents", { method: "POST", body });

export const updateAssistant = (id: string, body: UpdateAssistantBody) =>
  api.request<Assistant>(`/agents/${id}`, { method: "PATCH", body });

/** Spec §7: the assistant's functions are unassigned one by one before the assistant is deleted. */
export async function deleteAssistant(id: string): Promise<void> {
  const functions = await fetchAssistantFunctions(id);
  for (const fn of functions) await unassignFunction(id, fn.id);
  await api.request(`/agents/${id}`, { method: "DELETE" });
}
