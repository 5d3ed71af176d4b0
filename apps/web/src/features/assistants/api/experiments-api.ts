import { type CreateExperimentBody, Experiment, type ExperimentAction, ExperimentResults } from "@parley/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { useWorkspaceId } from "../../../lib/auth-context.ts";
import { api } from "../../../lib/http-client.ts";
import { useStorePublished } from "./versions-api.ts";

/** An assistant's experiments (issue 30): traffic split between its versions. */
export const experimentKeys = {
  all: (workspaceId: string, id: string) => [workspaceId, "assistants", "experiments", id] as const,
  results: (workspaceId: string, id: string, experimentId: string) =>
    [workspaceId, "assistants", "experiments", id, "results", experimentId] as const,
};

const ExperimentList = z.array(Experiment);

export function useExperiments(assistantId: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: experimentKeys.all(workspaceId, assistantId),
    queryFn: async () => ExperimentList.parse(await api.request(`/agents/${assistantId}/experiments`)),
  });
}

/** Results per variant; a running experiment's are read again each half minute, as calls end. */
export function useExperimentResults(assistantId: string, experiment: Experiment) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: experimentKeys.results(workspaceId, assistantId, experiment.id),
    queryFn: async () =>
      ExperimentResults.parse(await api.request(`/agents/${assistantId}/experiments/${experiment.id}/results`)),
    refetchInterval: experiment.status === "running" ? 30_000 : false,
  });
}

function useRefreshExperiments(assistantId: string) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: experimentKeys.all(workspaceId, assistantId) });
}

export function useCreateExperiment(assistantId: string) {
  const refresh = useRefreshExperiments(assistantId);
  return useMutation({
    mutationFn: async (body: CreateExperimentBody) =>
      Experiment.parse(await api.request(`/agents/${assistantId}/experiments`, { method: "POST", body })),
    onSuccess: refresh,
  });
}

/** start, pause, resume or end. */
export function useExperimentAction(assistantId: string) {
  const refresh = useRefreshExperiments(assistantId);
  return useMutation({
    mutationFn: async ({ experimentId, action }: { experimentId: string; action: ExperimentAction }) =>
      Experiment.parse(
        await api.request(`/agents/${assistantId}/experiments/${experimentId}/${action}`, { method: "POST" }),
      ),
    onSuccess: refresh,
  });
}

/** Publishes the winner's version (the assistant changes) and ends the experiment. */
export function usePromoteVariant(assistantId: string) {
  const refresh = useRefreshExperiments(assistantId);
  const storePublished = useStorePublished(assistantId);
  return useMutation({
    mutationFn: async ({ experimentId, version }: { experimentId: string; version: number }) =>
      Experiment.parse(
        await api.request(`/agents/${assistantId}/experiments/${experimentId}/promote`, {
          method: "POST",
          body: { version },
        }),
      ),
    onSuccess: () => Promise.all([refresh(), storePublished(null)]),
  });
}

export function useDeleteExperiment(assistantId: string) {
  const refresh = useRefreshExperiments(assistantId);
  return useMutation({
    mutationFn: (experimentId: string) =>
      api.request(`/agents/${assistantId}/experiments/${experimentId}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
}
