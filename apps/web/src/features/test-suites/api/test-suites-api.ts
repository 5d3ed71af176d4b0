import {
  type CreateTestCaseBody,
  type CreateTestSuiteBody,
  type GenerateTestCasesBody,
  TestCase,
  TestCaseList,
  TestSuite,
  TestSuitePage,
  type UpdateTestCaseBody,
  type UpdateTestSuiteBody,
} from "@parley/contract";
import { keepPreviousData, useMutation, useQueryClient } from "@tanstack/react-query";
import { useWorkspaceId } from "../../../lib/auth-context.ts";
import { ApiError, api } from "../../../lib/http-client.ts";
import { useWorkspaceQuery } from "../../../lib/workspace-query.ts";

/** Test suites and their cases (issue 29); runs are in test-runs-api.ts under the same root key. */
export const testSuiteKeys = {
  all: (workspaceId: string) => [workspaceId, "test-suites"] as const,
  lists: (workspaceId: string) => [workspaceId, "test-suites", "list"] as const,
  list: (workspaceId: string, agentId: string | null, page: number) =>
    [workspaceId, "test-suites", "list", agentId, page] as const,
  suite: (workspaceId: string, id: string) => [workspaceId, "test-suites", "suite", id] as const,
  cases: (workspaceId: string, id: string) => [workspaceId, "test-suites", "suite", id, "cases"] as const,
};

export const SUITES_PAGE_SIZE = 20;

/** A missing suite or case is said at once; anything else is asked again twice. */
export const retryUnlessMissing = (count: number, error: unknown) =>
  !(error instanceof ApiError && error.status === 404) && count < 2;

export const fetchTestSuites = async (agentId: string | null, page: number) =>
  TestSuitePage.parse(
    await api.request("/test-suites", {
      query: { agent_id: agentId ?? undefined, page, items_per_page: SUITES_PAGE_SIZE },
    }),
  );

/** One page of suites: of one assistant, or (agentId null) of the whole workspace. */
export const useTestSuites = (agentId: string | null, page: number) =>
  useWorkspaceQuery(
    (workspaceId) => testSuiteKeys.list(workspaceId, agentId, page),
    () => fetchTestSuites(agentId, page),
    { placeholderData: keepPreviousData },
  );

export const useTestSuite = (id: string) =>
  useWorkspaceQuery(
    (workspaceId) => testSuiteKeys.suite(workspaceId, id),
    async () => TestSuite.parse(await api.request(`/test-suites/${id}`)),
    { retry: retryUnlessMissing },
  );

export const useTestCases = (suiteId: string) =>
  useWorkspaceQuery(
    (workspaceId) => testSuiteKeys.cases(workspaceId, suiteId),
    async () => TestCaseList.parse(await api.request(`/test-suites/${suiteId}/cases`)).items,
  );

/** Every suite write can change a list's counts and statuses: the feature's suite data is read again. */
function useSuiteWrite<V, R>(write: (vars: V) => Promise<R>) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: testSuiteKeys.all(workspaceId) }),
  });
}

export const useCreateTestSuite = () =>
  useSuiteWrite(async (body: CreateTestSuiteBody) =>
    TestSuite.parse(await api.request("/test-suites", { method: "POST", body })),
  );

export const useUpdateTestSuite = () =>
  useSuiteWrite(async ({ id, body }: { id: string; body: UpdateTestSuiteBody }) =>
    TestSuite.parse(await api.request(`/test-suites/${id}`, { method: "PATCH", body })),
  );

export function useDeleteTestSuite() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.request(`/test-suites/${id}`, { method: "DELETE" }),
    onSuccess: (_answer, id) => {
      // The suite's page being left must not ask for it again.
      queryClient.removeQueries({ queryKey: testSuiteKeys.suite(workspaceId, id) });
      return queryClient.invalidateQueries({ queryKey: testSuiteKeys.lists(workspaceId) });
    },
  });
}

export const useSaveTestCase = (suiteId: string) =>
  useSuiteWrite(async ({ id, body }: { id: string | null; body: CreateTestCaseBody | UpdateTestCaseBody }) =>
    TestCase.parse(
      await api.request(id ? `/test-suites/${suiteId}/cases/${id}` : `/test-suites/${suiteId}/cases`, {
        method: id ? "PATCH" : "POST",
        body,
      }),
    ),
  );

export const useDeleteTestCase = (suiteId: string) =>
  useSuiteWrite((id: string) => api.request(`/test-suites/${suiteId}/cases/${id}`, { method: "DELETE" }));

export const useGenerateTestCases = (suiteId: string) =>
  useSuiteWrite(
    async (body: GenerateTestCasesBody) =>
      TestCaseList.parse(await api.request(`/test-suites/${suiteId}/cases/generate`, { method: "POST", body })).items,
  );
