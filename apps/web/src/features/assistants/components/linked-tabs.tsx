import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSnackbar } from "notistack";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { paths } from "../../../config/paths.ts";
import {
  assignFunction,
  assistantFunctionsQuery,
  functionOptionsQuery,
  unassignFunction,
} from "../api/functions-api.ts";
import {
  assignMcpServer,
  assistantMcpServersQuery,
  mcpServerOptionsQuery,
  unassignMcpServer,
} from "../api/mcp-servers-api.ts";
import { type LinkedItem, LinkedItemsPanel, type LinkedItemsTexts } from "./linked-items-panel.tsx";

type Kind = "functions" | "tools";

function useTexts(kind: Kind): LinkedItemsTexts {
  const { t } = useTranslation("assistants");
  return {
    title: t(`${kind}.title`),
    help: t(`${kind}.help`),
    assigned: t(`${kind}.assigned`),
    none: t(`${kind}.none`),
    choose: t(`${kind}.choose`),
    assign: t(`${kind}.assign`),
    unassign: (name) => t(`${kind}.unassign`, { name }),
    noneInWorkspace: t(`${kind}.noneInWorkspace`),
    allAssigned: t(`${kind}.allAssigned`),
    manage: t(`${kind}.manage`),
    loading: t("loading"),
  };
}

/** Runs a link change, shows the spec §8 notice, and refreshes this assistant's list. */
function useLinkAction(listKey: readonly unknown[]) {
  const { t } = useTranslation("assistants");
  const { enqueueSnackbar } = useSnackbar();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>, notice: string) => {
    setBusy(true);
    try {
      await action();
      enqueueSnackbar(t(notice), { variant: "success" });
    } catch (error) {
      enqueueSnackbar(errorText(error, t("notices.failed")), { variant: "error" });
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: listKey });
    }
  };
  return { busy, run };
}

export function FunctionsTab({ assistantId }: { assistantId: string }) {
  const texts = useTexts("functions");
  const assignedQuery = assistantFunctionsQuery(assistantId);
  const assigned = useQuery(assignedQuery);
  const available = useQuery(functionOptionsQuery());
  const { busy, run } = useLinkAction(assignedQuery.queryKey);
  const toItem = (f: { id: string; name: string; description?: string }): LinkedItem => ({
    id: f.id,
    name: f.name,
    detail: f.description,
  });
  const failure = assigned.error ?? available.error;
  return (
    <LinkedItemsPanel
      texts={texts}
      manageHref={paths.functions}
      assigned={assigned.data?.map(toItem)}
      available={available.data?.map(toItem)}
      error={failure ? errorText(failure, texts.title) : null}
      busy={busy}
      onAssign={(id) => run(() => assignFunction(assistantId, id), "notices.functionAssigned")}
      onUnassign={(item) => run(() => unassignFunction(assistantId, item.id), "notices.functionUnassigned")}
    />
  );
}

export function ToolServersTab({ assistantId }: { assistantId: string }) {
  const texts = useTexts("tools");
  const assignedQuery = assistantMcpServersQuery(assistantId);
  const assigned = useQuery(assignedQuery);
  const available = useQuery(mcpServerOptionsQuery());
  const { busy, run } = useLinkAction(assignedQuery.queryKey);
  const toItem = (s: { id: string; name: string; description?: string | null; url: string }): LinkedItem => ({
    id: s.id,
    name: s.name,
    detail: s.description || s.url,
  });
  const failure = assigned.error ?? available.error;
  return (
    <LinkedItemsPanel
      texts={texts}
      manageHref={paths.mcpServers}
      assigned={assigned.data?.map(toItem)}
      available={available.data?.map(toItem)}
      error={failure ? errorText(failure, texts.title) : null}
      busy={busy}
      onAssign={(id) => run(() => assignMcpServer(assistantId, id), "notices.toolServerAssigned")}
      onUnassign={(item) => run(() => unassignMcpServer(assistantId, item.id), "notices.toolServerUnassigned")}
    />
  );
}
