import type { CreateSquadBody, Squad } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { useAssistants } from "../../../api/assistants.ts";
import { ResourceListPage } from "../../../components/resource-list-page.tsx";
import { useResourcePage } from "../../../lib/use-resource-page.ts";
import { useDeleteSquad, useSaveSquad, useSquads } from "../api/squads.ts";
import { SQUAD_ACTIONS, type SquadAction, squadColumns } from "../components/squad-columns.tsx";
import { SquadDialog } from "../components/squad-dialog.tsx";
import { SquadTestCallDialog } from "../components/squad-test-call-dialog.tsx";

/** Squads: assistants that hand one call between them (issue 31). */
export default function SquadsPage() {
  const { t } = useTranslation(["squads", "translation"], { nsMode: "fallback" });
  const squads = useSquads();
  const assistants = useAssistants();
  const page = useResourcePage<Squad, SquadAction, CreateSquadBody>(t, {
    save: useSaveSquad(),
    remove: useDeleteSquad(),
  });
  return (
    <ResourceListPage
      page={page}
      t={t}
      title={t("title")}
      query={squads}
      columns={squadColumns(t)}
      actions={SQUAD_ACTIONS}
      vars={(squad) => ({ name: squad?.name ?? "" })}
      editor={(squad) => (
        <SquadDialog squad={squad} assistants={assistants.data ?? []} onClose={page.close} onSubmit={page.save} />
      )}
    >
      {page.open?.kind === "testCall" && <SquadTestCallDialog squad={page.open.item} onClose={page.close} />}
    </ResourceListPage>
  );
}
