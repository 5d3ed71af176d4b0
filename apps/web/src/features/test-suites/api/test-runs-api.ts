import {
  AssistantVersionSummary,
  CallLog,
  FINISHED_TEST_RUN_STATUSES,
  type StartTestRunBody,
  TestRun,
  TestRunPage,
  type TestRunStatus,
} from "@parley/contract";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useWorkspaceId } from "../../../lib/auth-context.ts";
import { api } from "../../../lib/http-client.ts";
import { useWorkspaceQuery } from "../../../lib/workspace-query.ts";
import { retryUnlessMissing, testSuiteKeys } from "./test-suites-api.ts";

/** A run's page asks again this often while the run may still change. */
export const RUN_POLL_MS = 1500;
export const RUNS_PAGE_SIZE = 10;

export const runIsLive = (status: TestRunStatus) =>
  !(FINISHED_TEST_RUN_STATUSES as readonly TestRunStatus[]).includes(status);

const runKeys = {
  list: (workspaceId: string, suiteId: string, page: number) =>
    [...testSuiteKeys.suite(workspaceId, suiteId), "runs", page] as const,
  run: (workspaceId: string, suiteId: string, runId: string) =>
    [...testSuiteKeys.suite(workspaceId, suiteId), "run", runId] as const,
  call: (workspaceId: string, callId: string) => [workspaceId, "test-suites", "call", callId] as const,
  versions: (workspaceId: string, agentId: string) => [workspaceId, "test-suites", "versions", agentId] as const,
};

const VersionList = AssistantVersionSummary.array();

/** The suite's assistant's versions, newest first, for choosing which one a run calls. */
export const useAssistantVersions = (agentId: string) =>
  useWorkspaceQuery(
    (workspaceId) => runKeys.versions(workspaceId, agentId),
    async () => VersionList.parse(await api.request(`/agents/${agentId}/versions`)),
  );

/** The suite's runs, newest first; read again every few seconds while one of them is under way. */
export const useTestRuns = (suiteId: string, page: number) =>
  useWorkspaceQuery(
    (workspaceId) => runKeys.list(workspaceId, suiteId, page),
    async () =>
      TestRunPage.parse(
        await api.request(`/test-suites/${suiteId}/runs`, { query: { page, items_per_page: RUNS_PAGE_SIZE } }),
      ),
    {
      placeholderData: keepPreviousData,
      refetchInterval: (query) =>
        query.state.data?.data.some((run) => runIsLive(run.status)) ? RUN_POLL_MS * 2 : false,
    },
  );

/** One run with its results, polled every 1.5 s until it has finished. */
export const useTestRun = (suiteId: string, runId: string) =>
  useWorkspaceQuery(
    (workspaceId) => runKeys.run(workspaceId, suiteId, runId),
    async () => TestRun.parse(await api.request(`/test-suites/${suiteId}/runs/${runId}`)),
    {
      retry: retryUnlessMissing,
      refetchInterval: (query) => (query.state.data && !runIsLive(query.state.data.status) ? false : RUN_POLL_MS),
    },
  );

/** Starts a run of the suite (all its cases, or `case_ids`); answers the queued run. */
export function useStartTestRun(suiteId: string) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: StartTestRunBody) =>
      TestRun.parse(
        await api.request(`/test-suites/${suiteId}/runs`, { method: "POST", body: { trigger: "dashboard", ...body } }),
      ),
    onSuccess: (run) => {
      queryClient.setQueryData(runKeys.run(workspaceId, suiteId, run.id), run);
      // The suite's lists show its last run.
      return queryClient.invalidateQueries({ queryKey: testSuiteKeys.all(workspaceId) });
    },
  });
}

export function useCancelTestRun(suiteId: string) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (runId: string) =>
      TestRun.parse(await api.request(`/test-suites/${suiteId}/runs/${runId}/cancel`, { method: "POST" })),
    onSuccess: (run) => {
      queryClient.setQueryData(runKeys.run(workspaceId, suiteId, run.id), run);
      return queryClient.invalidateQueries({ queryKey: testSuiteKeys.all(workspaceId) });
    },
  });
}

/**
 * A test call's log. While `live` it is read every 1.5 s: the transcript is saved as the call runs,
 * so this is how a result shows what is being said.
 */
export const useTestCallLog = (callId: string, live: boolean) =>
  useWorkspaceQuery(
    (workspaceId) => runKeys.call(workspaceId, callId),
    async () => CallLog.parse(await api.request(`/call-logs/${callId}`)),
    { refetchInterval: live ? RUN_POLL_MS : false },
  );

/** A call's recording as an object URL, for an audio element (the request carries the bearer token). */
export function useRecordingUrl(callId: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: [...runKeys.call(workspaceId, callId), "recording"],
    queryFn: async () => URL.createObjectURL(await (await api.send(`/call-logs/${callId}/recording`)).blob()),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}
