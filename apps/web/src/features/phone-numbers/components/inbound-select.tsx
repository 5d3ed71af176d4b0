import type { PhoneNumber } from "@parley/contract";
import type { FieldPath, FieldValues } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useAssistants } from "../../../api/assistants.ts";
import type { GridSize, SelectSpec } from "../../../components/form-fields/field-spec.ts";
import { useSquadOptions } from "../api/squad-options.ts";

/** A squad's option value: its id behind a prefix no assistant id has. */
const SQUAD = "squad:";

/** The select's value for who answers a number now: a squad, an assistant or none (""). */
export const inboundValueOf = (number: PhoneNumber) =>
  number.squad_id ? `${SQUAD}${number.squad_id}` : (number.agent_id ?? "");

/** The PATCH fields of the chosen value: one of an assistant and a squad, the other cleared. */
export function inboundTargetOf(value: string): { agent_id: string | null; squad_id: string | null } {
  if (value.startsWith(SQUAD)) return { agent_id: null, squad_id: value.slice(SQUAD.length) };
  return { agent_id: value || null, squad_id: null };
}

/**
 * Who answers a number (issue 31): none, one of the workspace's assistants, or one of its squads
 * (the call then starts at the squad's first member).
 */
export function useInboundSelect<T extends FieldValues>() {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const assistants = useAssistants();
  const squads = useSquadOptions();
  const options = [
    { value: "", label: <em>{t("none")}</em> },
    ...(assistants.data ?? []).map((assistant) => ({ value: assistant.id, label: assistant.name })),
    ...(squads.data ?? []).map((squad) => ({
      value: `${SQUAD}${squad.id}`,
      label: t("squadOption", { name: squad.name }),
    })),
  ];
  return (name: FieldPath<T>, label: string, helperText?: string, grid?: GridSize): SelectSpec<T> => ({
    kind: "select",
    name,
    label,
    grid,
    options,
    helperText: assistants.error || squads.error ? t("assistantsFailed") : helperText,
  });
}
