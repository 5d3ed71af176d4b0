import { SquadListResponse } from "@parley/contract";
import type { TFunction } from "i18next";
import type { FieldPath, FieldValues } from "react-hook-form";
import type { SelectSpec } from "../../../components/form-fields/field-spec.ts";
import { api } from "../../../lib/http-client.ts";
import { useWorkspaceQuery } from "../../../lib/workspace-query.ts";

/** The widget's optional squad (issue 31): calls then start at its first member instead of the assistant. */
export function useSquadSelect<T extends FieldValues>(name: FieldPath<T>, t: TFunction): SelectSpec<T> {
  const squads = useWorkspaceQuery(
    (workspaceId) => [workspaceId, "squads", "list", "widget"],
    async () => SquadListResponse.parse(await api.request("/squads")).squads,
  );
  return {
    kind: "select",
    name,
    label: t("fields.squad"),
    helperText: squads.error ? t("squadsFailed") : t("squadHelp"),
    options: [
      { value: "", label: t("noSquad") },
      ...(squads.data ?? []).map((squad) => ({ value: squad.id, label: squad.name })),
    ],
  };
}
