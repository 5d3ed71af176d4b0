import { useSnackbar } from "notistack";
import { useTranslation } from "react-i18next";
import { useAssistantDocuments, useDocumentLink, useDocuments } from "../../../api/documents.ts";
import { useAssistantFunctions, useFunctionLink, useFunctions } from "../../../api/functions.ts";
import { useAssistantMcpServers, useMcpServerLink, useMcpServers } from "../../../api/mcp-servers.ts";
import { errorText } from "../../../components/error-text.ts";
import { paths } from "../../../config/paths.ts";
import { type LinkedItem, LinkedItemsPanel, type LinkedItemsTexts } from "./linked-items-panel.tsx";

type Kind = "functions" | "tools" | "knowledge";

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

/** Runs a link change and shows the spec §8 notice; the link mutation refreshes the assistant's list. */
function useLinkNotices() {
  const { t } = useTranslation("assistants");
  const { enqueueSnackbar } = useSnackbar();
  return async (change: Promise<unknown>, notice: string) => {
    try {
      await change;
      enqueueSnackbar(t(notice), { variant: "success" });
    } catch (error) {
      enqueueSnackbar(errorText(error, t("notices.failed")), { variant: "error" });
    }
  };
}

export function FunctionsTab({ assistantId }: { assistantId: string }) {
  const texts = useTexts("functions");
  const assigned = useAssistantFunctions(assistantId);
  const available = useFunctions();
  const link = useFunctionLink(assistantId);
  const notify = useLinkNotices();
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
      busy={link.isPending}
      onAssign={(id) => notify(link.mutateAsync({ functionId: id, linked: true }), "notices.functionAssigned")}
      onUnassign={(item) =>
        notify(link.mutateAsync({ functionId: item.id, linked: false }), "notices.functionUnassigned")
      }
    />
  );
}

export function ToolServersTab({ assistantId }: { assistantId: string }) {
  const texts = useTexts("tools");
  const assigned = useAssistantMcpServers(assistantId);
  const available = useMcpServers();
  const link = useMcpServerLink(assistantId);
  const notify = useLinkNotices();
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
      busy={link.isPending}
      onAssign={(id) => notify(link.mutateAsync({ serverId: id, linked: true }), "notices.toolServerAssigned")}
      onUnassign={(item) =>
        notify(link.mutateAsync({ serverId: item.id, linked: false }), "notices.toolServerUnassigned")
      }
    />
  );
}

/** The knowledge documents the assistant searches during calls (its knowledge-search tool). */
export function KnowledgeTab({ assistantId }: { assistantId: string }) {
  const texts = useTexts("knowledge");
  const assigned = useAssistantDocuments(assistantId);
  const available = useDocuments();
  const link = useDocumentLink();
  const notify = useLinkNotices();
  const toItem = (d: { id: string; name: string; url: string | null }): LinkedItem => ({
    id: d.id,
    name: d.name,
    detail: d.url ?? undefined,
  });
  const failure = assigned.error ?? available.error;
  return (
    <LinkedItemsPanel
      texts={texts}
      manageHref={paths.knowledgeBase}
      assigned={assigned.data?.map(toItem)}
      available={available.data?.map(toItem)}
      error={failure ? errorText(failure, texts.title) : null}
      busy={link.isPending}
      onAssign={(id) =>
        notify(link.mutateAsync({ assistantId, documentId: id, linked: true }), "notices.documentLinked")
      }
      onUnassign={(item) =>
        notify(link.mutateAsync({ assistantId, documentId: item.id, linked: false }), "notices.documentUnlinked")
      }
    />
  );
}
