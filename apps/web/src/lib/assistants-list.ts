import type { Assistant } from "@parley/contract";
import { queryOptions } from "@tanstack/react-query";
import { ApiError, api } from "./http-client.ts";

/**
 * The workspace's assistants for pickers and filters outside the assistants area. Same cache key
 * as the assistants feature's list, so creating or deleting one there refreshes these too.
 */
export const assistantsListQuery = () =>
  queryOptions({
    queryKey: ["assistants", "list"],
    queryFn: async () => {
      try {
        return (await api.request<Assistant[]>("/agents")).filter((a) => !a.temp);
      } catch (error) {
        // Spec §8: a 404 on the assistant list is an empty list.
        if (error instanceof ApiError && error.status === 404) return [];
        throw error;
      }
    },
  });
