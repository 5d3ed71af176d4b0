import {
  type CreateWorkflowBody,
  type UpdateWorkflowBody,
  validateWorkflow,
  Workflow,
  type WorkflowIssue,
  type WorkflowListQuery,
  WorkflowPage,
  type WorkflowTestTurnBody,
  WorkflowTestTurnResult,
  WorkflowValidationResult,
  WorkflowVersionList,
} from "@parley/contract";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useWorkspaceId } from "../../../lib/auth-context.ts";
import { ApiError, api } from "../../../lib/http-client.ts";

/** Workflows of the workspace (issue 15): the list, one workflow's draft, its published versions. */
export const workflowKeys = {
  all: (workspaceId: string) => [workspaceId, "workflows"] as const,
  list: (workspaceId: string, query: WorkflowListParams) => [workspaceId, "workflows", "list", query] as const,
  detail: (workspaceId: string, id: string) => [workspaceId, "workflows", "detail", id] as const,
  versions: (workspaceId: string, id: string) => [workspaceId, "workflows", "versions", id] as const,
};

/** A workflow that is not there (deleted, or another workspace's) will not appear on a retry. */
const retryUnlessMissing = (count: number, error: unknown) =>
  !(error instanceof ApiError && error.status === 404) && count < 2;

/** The list's query as sent: only what the page chose (the server fills the defaults). */
export interface WorkflowListParams {
  page: number;
  items_per_page: number;
  search?: string;
  sort_by?: NonNullable<WorkflowListQuery["sort_by"]>;
  sort_order?: NonNullable<WorkflowListQuery["sort_order"]>;
}

export const fetchWorkflows = async (query: WorkflowListParams) =>
  WorkflowPage.parse(await api.request("/workflows", { query: { ...query } }));
export const fetchWorkflow = async (id: string) => Workflow.parse(await api.request(`/workflows/${id}`));

export function useWorkflows(query: WorkflowListParams) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: workflowKeys.list(workspaceId, query),
    queryFn: () => fetchWorkflows(query),
    // Paging and searching keep the rows shown until the next page arrives.
    placeholderData: keepPreviousData,
  });
}

export function useWorkflow(id: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: workflowKeys.detail(workspaceId, id),
    queryFn: () => fetchWorkflow(id),
    retry: retryUnlessMissing,
    // The builder holds the draft being edited: a refetch on focus must not move the baseline under it.
    refetchOnWindowFocus: false,
  });
}

export function useWorkflowVersions(id: string, enabled: boolean) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: workflowKeys.versions(workspaceId, id),
    queryFn: async () => WorkflowVersionList.parse(await api.request(`/workflows/${id}/versions`)),
    enabled,
  });
}

/** After a write that answers with the workflow: it is the cached one, and the lists are read again. */
function useStoreWorkflow() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return (workflow: Workflow) => {
    queryClient.setQueryData(workflowKeys.detail(workspaceId, workflow.id), workflow);
    return queryClient.invalidateQueries({ queryKey: [...workflowKeys.all(workspaceId), "list"] });
  };
}

/** A write the server answers with the workflow. */
function useWorkflowWrite<Input>(send: (input: Input) => Promise<unknown>) {
  const store = useStoreWorkflow();
  return useMutation({ mutationFn: async (input: Input) => Workflow.parse(await send(input)), onSuccess: store });
}

export const useCreateWorkflow = () =>
  useWorkflowWrite((body: CreateWorkflowBody) => api.request("/workflows", { method: "POST", body }));

export const useDuplicateWorkflow = () =>
  useWorkflowWrite((id: string) => api.request(`/workflows/${id}/duplicate`, { method: "POST" }));

export const useSaveWorkflow = (id: string) =>
  useWorkflowWrite((body: UpdateWorkflowBody) => api.request(`/workflows/${id}`, { method: "PATCH", body }));

export function useDeleteWorkflow() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.request(`/workflows/${id}`, { method: "DELETE" }),
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: workflowKeys.detail(workspaceId, id) });
      // Deleting detaches its assistants: their cached copies name a workflow that is gone.
      void queryClient.invalidateQueries({ queryKey: [workspaceId, "assistants"] });
      return queryClient.invalidateQueries({ queryKey: [...workflowKeys.all(workspaceId), "list"] });
    },
  });
}

/** A publish the server refused because the graph cannot run: the sentence and the issues to show. */
export class PublishRefused extends Error {
  constructor(
    message: string,
    readonly issues: WorkflowIssue[],
  ) {
    super(message);
    this.name = "PublishRefused";
  }
}

/**
 * Publishes the saved draft as the next version. A 422 means the graph cannot run; the shared client
 * keeps a failure's sentence, not its payload, so the issues are asked of the server's validator
 * (the same checks publish ran, the workspace's tools included).
 */
async function publishWorkflow(workflow: Workflow): Promise<Workflow> {
  try {
    return Workflow.parse(await api.request(`/workflows/${workflow.id}/publish`, { method: "POST" }));
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 422)) throw error;
    const body = { graph: workflow.graph, variables: workflow.variables };
    const checked = await api
      .request("/workflows/validate", { method: "POST", body })
      .then((answer) => WorkflowValidationResult.parse(answer).issues)
      .catch(() => validateWorkflow(workflow.graph, workflow.variables, workflow.global_prompt));
    throw new PublishRefused(error.detail || error.message, checked);
  }
}

/** Publishes the given saved workflow (its draft as the server holds it). */
export function usePublishWorkflow() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  const store = useStoreWorkflow();
  return useMutation({
    mutationFn: publishWorkflow,
    onSuccess: (workflow) => {
      void queryClient.invalidateQueries({ queryKey: workflowKeys.versions(workspaceId, workflow.id) });
      return store(workflow);
    },
  });
}

/** One turn of the text test: the server runs the saved draft with the assistant's model; the client keeps the state. */
export const useTestTurn = (id: string) =>
  useMutation({
    mutationFn: async (body: WorkflowTestTurnBody) =>
      WorkflowTestTurnResult.parse(await api.request(`/workflows/${id}/test-turn`, { method: "POST", body })),
  });
