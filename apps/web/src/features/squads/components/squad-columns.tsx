import CallOutlined from "@mui/icons-material/CallOutlined";
import Box from "@mui/material/Box";
import type { Squad } from "@parley/contract";
import type { TFunction } from "i18next";
import type { Column } from "../../../components/data-table.tsx";
import { NameCell } from "../../../components/name-cell.tsx";
import { editDeleteActions, type KeyedAction } from "../../../components/resource-table.tsx";

export type SquadAction = "testCall" | "edit" | "delete";

/** A test call (starting at any member), edit and delete per row, each named for its squad. */
export const SQUAD_ACTIONS: KeyedAction<SquadAction, Squad>[] = [
  { id: "testCall", icon: <CallOutlined />, label: "testCallNamed" },
  ...editDeleteActions<Squad>(),
];

/** The squad's members (the first marked) and its hand-offs as "from → to" edges. */
export const squadColumns = (t: TFunction): Column<Squad>[] => [
  { header: t("fields.name"), cell: (squad) => <NameCell name={squad.name} detail={squad.description} /> },
  {
    header: t("members.title"),
    cell: (squad) =>
      squad.members.map((m) => (m.first ? t("members.firstNamed", { name: m.name }) : m.name)).join(", "),
  },
  {
    header: t("handoffs.title"),
    cell: (squad) =>
      squad.handoffs.length === 0 ? (
        t("handoffs.none")
      ) : (
        <Box component="ul" sx={{ m: 0, ps: 2 }}>
          {squad.handoffs.map((h) => (
            <li key={`${h.from}-${h.to}`}>
              <span dir="ltr">{t("handoffs.edge", { from: h.from, to: h.to })}</span>
            </li>
          ))}
        </Box>
      ),
  },
  { header: t("fields.maxHandoffs"), cell: (squad) => squad.max_handoffs },
];
