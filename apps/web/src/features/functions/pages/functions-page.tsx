import type { ToolFunction } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { type FunctionSaveBody, useDeleteFunction, useFunctions, useSaveFunction } from "../../../api/functions.ts";
import { ResourceListPage } from "../../../components/resource-list-page.tsx";
import { useResourcePage } from "../../../lib/use-resource-page.ts";
import { FUNCTION_ACTIONS, type FunctionAction, functionColumns } from "../components/function-columns.tsx";
import { FunctionDialog } from "../components/function-dialog.tsx";
import { TestFunctionDialog } from "../components/test-function-dialog.tsx";

/** Functions: HTTP endpoints an assistant can call as tools during a conversation. */
export default function FunctionsPage() {
  const { t } = useTranslation(["functions", "translation"], { nsMode: "fallback" });
  const functions = useFunctions();
  const page = useResourcePage<ToolFunction, FunctionAction, FunctionSaveBody>(t, {
    save: useSaveFunction(),
    remove: useDeleteFunction(),
  });
  return (
    <ResourceListPage
      page={page}
      t={t}
      title={t("nav.functions")}
      query={functions}
      columns={functionColumns(t)}
      actions={FUNCTION_ACTIONS}
      vars={(fn) => ({ name: fn?.name ?? "" })}
      editor={(fn) => <FunctionDialog fn={fn} onClose={page.close} onSubmit={page.save} />}
    >
      {page.open?.kind === "test" && <TestFunctionDialog fn={page.open.item} onClose={page.close} />}
    </ResourceListPage>
  );
}
