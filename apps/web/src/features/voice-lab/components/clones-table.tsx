import DeleteOutline from "@mui/icons-material/DeleteOutline";
import PlayCircleOutline from "@mui/icons-material/PlayCircleOutline";
import { TTS_CATALOG, type VoiceClone } from "@parley/contract";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { useClones } from "../../../api/clones.ts";
import { type Column, type KeyedAction, keyedActions, ResourceTable } from "../../../components/resource-table.tsx";
import { languageName } from "../utils/languages.ts";

export type CloneAction = "try" | "delete";

/** Try a clone in the synthesis panel, or delete it; each named for the clone. */
const CLONE_ACTIONS: KeyedAction<CloneAction, VoiceClone>[] = [
  { id: "try", icon: <PlayCircleOutline />, label: "clones.tryNamed", tooltip: "clones.try" },
  { id: "delete", icon: <DeleteOutline />, label: "clones.deleteNamed", tooltip: "clones.delete" },
];

/** The workspace's voice clones, newest first, each to try in the synthesis panel or delete. */
export function ClonesTable(props: {
  clones: ReturnType<typeof useClones>;
  empty: ReactNode;
  onAction: (action: CloneAction, clone: VoiceClone) => void;
}) {
  const { t, i18n } = useTranslation(["voice-lab", "translation"], { nsMode: "fallback" });
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });
  const columns: Column<VoiceClone>[] = [
    { header: t("clones.name"), sx: { fontWeight: 600 }, cell: (clone) => clone.name },
    { header: t("clones.provider"), cell: (clone) => TTS_CATALOG[clone.service_name].label },
    { header: t("clones.language"), cell: (clone) => languageName(clone.language, i18n.language) },
    {
      header: t("clones.description"),
      sx: { color: "text.secondary", maxWidth: 320 },
      cell: (clone) => clone.description || "—",
    },
    {
      header: t("clones.created"),
      sx: { whiteSpace: "nowrap" },
      cell: (clone) => date.format(new Date(clone.created_at)),
    },
  ];
  const actions = keyedActions(t, CLONE_ACTIONS, (clone) => ({ name: clone.name }), props.onAction);
  return (
    <ResourceTable
      label={t("clones.title")}
      query={props.clones}
      empty={props.empty}
      columns={columns}
      actions={actions}
      loadingRows={2}
      plain
    />
  );
}
