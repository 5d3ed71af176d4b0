import PlayArrowOutlined from "@mui/icons-material/PlayArrowOutlined";
import Chip from "@mui/material/Chip";
import type { ToolFunction } from "@parley/contract";
import type { TFunction } from "i18next";
import type { Column } from "../../../components/data-table.tsx";
import { NameCell } from "../../../components/name-cell.tsx";
import { editDeleteActions, type KeyedAction } from "../../../components/resource-table.tsx";

export type FunctionAction = "test" | "edit" | "delete";

/** Test, edit and delete per row, each named for its function. */
export const FUNCTION_ACTIONS: KeyedAction<FunctionAction, ToolFunction>[] = [
  { id: "test", icon: <PlayArrowOutlined />, label: "testNamed" },
  ...editDeleteActions<ToolFunction>(),
];

/** The workspace's functions: what each calls and how, its timeout and whether it signs. */
export const functionColumns = (t: TFunction): Column<ToolFunction>[] => [
  { header: t("fields.name"), cell: (fn) => <NameCell name={fn.name} detail={fn.description} /> },
  {
    header: t("fields.endpoint"),
    sx: { maxWidth: 360, wordBreak: "break-all" },
    cell: (fn) => (
      <>
        <Chip size="small" label={fn.method} sx={{ mr: 1, fontFamily: "monospace" }} />
        <span dir="ltr">{fn.url}</span>
      </>
    ),
  },
  { header: t("fields.timeout"), cell: (fn) => t("seconds", { value: fn.timeout }) },
  { header: t("fields.secret"), cell: (fn) => (fn.has_secret ? t("secretSet") : t("secretNone")) },
];
