import { useTranslation } from "react-i18next";
import { useAssistantDocuments, useDocumentLink, useDocuments } from "../../../api/documents.ts";
import { useAssistantFunctions, useFunctionLink, useFunctions } from "../../../api/functions.ts";
import { useAssistantMcpServers, useMcpServerLink, useMcpServers } from "../../../api/mcp-servers.ts";
import { errorText } from "../../../components/error-text.ts";
import { paths } from "../../../config/paths.ts";
import { useSnackbar } from "../../../lib/snackbar.ts";
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

interface Listed {
  data?: readonly { id: string; name: string }[] | undefined;
  error: unknown;
}

/** One kind of linked item: what is assigned, what could be, and the link's change with its two notices. */
function LinkedTab<A extends Listed, W extends Listed>(props: {
  kind: Kind;
  manageHref: string;
  assigned: A;
  available: W;
  toItem: (item: NonNullable<A["data"] | W["data"]>[number]) => LinkedItem;
  busy: boolean;
  setLinked: (id: string, linked: boolean) => Promise<unknown>;
  notices: { linked: string; unlinked: string };
}) {
  const texts = useTexts(props.kind);
  const notify = useLinkNotices();
  const failure = props.assigned.error ?? props.available.error;
  return (
    <LinkedItemsPanel
      texts={texts}
      manageHref={props.manageHref}
      assigned={props.assigned.data?.map(props.toItem)}
      available={props.available.data?.map(props.toItem)}
      error={failure ? errorText(failure, texts.title) : null}
      busy={props.busy}
      onAssign={(id) => notify(props.setLinked(id, true), props.notices.linked)}
      onUnassign={(item) => notify(props.setLinked(item.id, false), props.notices.unlinked)}
    />
  );
}

export function FunctionsTab({ assistantId }: { assistantId: string }) {
  const link = useFunctionLink(assistantId);
  return (
    <LinkedTab
      kind="functions"
      manageHref={paths.functions}
      assigned={useAssistantFunctions(assistantId)}
      available={useFunctions()}
      toItem={(f: { id: string; name: string; description?: string }) => ({
        id: f.id,
        name: f.name,
        detail: f.description,
      })}
      busy={link.isPending}
      setLinked={(functionId, linked) => link.mutateAsync({ functionId, linked })}
      notices={{ linked: "notices.functionAssigned", unlinked: "notices.functionUnassigned" }}
    />
  );
}

export function ToolServersTab({ assistantId }: { assistantId: string }) {
  const link = useMcpServerLink(assistantId);
  return (
    <LinkedTab
      kind="tools"
      manageHref={paths.mcpServers}
      assigned={useAssistantMcpServers(assistantId)}
      available={useMcpServers()}
      toItem={(s: { id: string; name: string; description?: string | null; url: string }) => ({
        id: s.id,
        name: s.name,
        detail: s.description || s.url,
      })}
      busy={link.isPending}
      setLinked={(serverId, linked) => link.mutateAsync({ serverId, linked })}
      notices={{ linked: "notices.toolServerAssigned", unlinked: "notices.toolServerUnassigned" }}
    />
  );
}

/** The knowledge documents the assistant searches during calls (its knowledge-search tool). */
export function KnowledgeTab({ assistantId }: { assistantId: string }) {
  const link = useDocumentLink();
  return (
    <LinkedTab
      kind="knowledge"
      manageHref={paths.knowledgeBase}
      assigned={useAssistantDocuments(assistantId)}
      available={useDocuments()}
      toItem={(d: { id: string; name: string; url: string | null }) => ({
        id: d.id,
        name: d.name,
        detail: d.url ?? undefined,
      })}
      busy={link.isPending}
      setLinked={(documentId, linked) => link.mutateAsync({ assistantId, documentId, linked })}
      notices={{ linked: "notices.documentLinked", unlinked: "notices.documentUnlinked" }}
    />
  );
}
