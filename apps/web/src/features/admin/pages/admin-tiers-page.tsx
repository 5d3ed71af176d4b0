import AddIcon from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import EditOutlined from "@mui/icons-material/EditOutlined";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import type { Tier, TierBody } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { type Column, ResourceTable } from "../../../components/resource-table.tsx";
import { useNotice } from "../../../lib/use-notice.ts";
import { useDeleteTier, useSaveTier, useTiers } from "../api/admin-api.ts";
import { TierDialog } from "../components/tier-dialog.tsx";

const COUNTS = ["max_assistants", "minutes_per_month", "concurrent_calls", "max_workspaces"] as const;

export default function AdminTiersPage() {
  const { t } = useTranslation(["admin", "translation"], { nsMode: "fallback" });
  const notice = useNotice();
  const tiers = useTiers();
  const saveTier = useSaveTier();
  const deleteTier = useDeleteTier();
  const [editing, setEditing] = useState<Tier | "new" | null>(null);
  const [deleting, setDeleting] = useState<Tier | null>(null);

  // A failed save is reported here and the dialog stays open with what was typed.
  const save = async (body: TierBody) => {
    const saved = saveTier.mutateAsync({ id: editing && editing !== "new" ? editing.id : null, body });
    if (await notice.run(saved, t(editing === "new" ? "admin.tierCreated" : "admin.tierUpdated"))) setEditing(null);
  };

  const remove = (tier: Tier) => {
    setDeleting(null);
    deleteTier.mutate(tier.id, { onSuccess: () => notice.success(t("admin.tierDeleted")), onError: notice.failure });
  };

  const columns: Column<Tier>[] = [
    { header: t("admin.tierFields.name"), cell: (tier) => tier.name },
    { header: t("admin.tierFields.price"), cell: (tier) => tier.price.toFixed(2) },
    ...COUNTS.map((field) => ({ header: t(`admin.tierFields.${field}`), cell: (tier: Tier) => tier[field] })),
    { header: t("admin.tierFields.users"), cell: (tier) => tier.user_count },
  ];

  return (
    <>
      <PageHeader
        title={t("nav.adminTiers")}
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing("new")}>
            {t("admin.newTier")}
          </Button>
        }
      />
      <ResourceTable
        label={t("nav.adminTiers")}
        query={tiers}
        empty={<Typography color="text.secondary">{t("admin.noTiers")}</Typography>}
        columns={columns}
        actions={[
          {
            id: "edit",
            icon: <EditOutlined />,
            label: (tier) => t("admin.editTierNamed", { name: tier.name }),
            onClick: setEditing,
          },
          {
            id: "delete",
            icon: <DeleteOutline />,
            label: (tier) => t("admin.deleteTierNamed", { name: tier.name }),
            onClick: setDeleting,
          },
        ]}
      />
      {editing && (
        <TierDialog tier={editing === "new" ? null : editing} onClose={() => setEditing(null)} onSubmit={save} />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t("admin.deleteTierTitle")}
        text={t("deleteTierText", { name: deleting?.name ?? "" })}
        confirmLabel={t("admin.delete")}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove(deleting)}
      />
    </>
  );
}
