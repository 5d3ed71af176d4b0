import type { AssistantTemplate } from "@parley/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";

export const templatesQuery = () =>
  queryOptions({
    queryKey: ["assistants", "templates"],
    queryFn: () => api.request<AssistantTemplate[]>("/agents/templates"),
    staleTime: Number.POSITIVE_INFINITY,
  });
