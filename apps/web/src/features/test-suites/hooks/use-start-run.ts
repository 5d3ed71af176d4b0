import type { StartTestRunBody, TestSuite } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useNotice } from "../../../lib/use-notice.ts";
import { useStartTestRun } from "../api/test-runs-api.ts";
import { testsPath } from "../paths.ts";

/** What a run asks for: some cases (all when none are named), one assistant version (the published one when null). */
export function startRunBody(caseIds: string[] | undefined, version: number | null): StartTestRunBody {
  return { ...(caseIds ? { case_ids: caseIds } : {}), ...(version === null ? {} : { version }) };
}

/**
 * Starts a run of the suite (or of some of its cases), calling `version` of its assistant (the
 * published one when null), and opens its page to watch it; a refusal is said in a notice.
 */
export function useStartRun(suite: TestSuite, version: number | null = null) {
  const { t } = useTranslation("test-suites");
  const start = useStartTestRun(suite.id);
  const navigate = useNavigate();
  const notice = useNotice();
  const run = async (caseIds?: string[]) => {
    try {
      const started = await start.mutateAsync(startRunBody(caseIds, version));
      notice.success(t("run.started"));
      navigate(testsPath(suite.agent_id, suite.id, started.id));
    } catch (error) {
      notice.failureWith(t("run.startFailed"))(error);
    }
  };
  return { run, busy: start.isPending };
}
