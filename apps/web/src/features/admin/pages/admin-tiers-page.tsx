import AddIcon from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import EditOutlined from "@mui/icons-material/EditOutlined";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { Tier, TierBody } from "@parley/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSnackbar } from "notistack";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { createTier, deleteTier, tiersQuery, updateTier } from "../api/admin-api.ts";
import { TierDialog } from "../components/tier-dialog.tsx";

export default function AdminTiersPage() {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const queryClient = useQueryClient();
  const tiers = useQuery(tiersQuery());
  const [editing, setEditing] = useState<Tier | "new" | null>(null);
  const [deleting, setDeleting] = useState<Tier | null>(null);

  const save = async (body: TierBody) => {
    try {
      if (editing && editing !== "new") await updateTier(editing.id, body);
      else await createTier(body);
      enqueueSnackbar(t(editing === "new" ? "admin.tierCreated" : "admin.tierUpdated"), { variant: "success" });
      setEditing(null);
      await queryClient.invalidateQueries({ queryKey: ["admin"] });
    } catch (error) {
      enqueueSnackbar(errorText(error, t("common.failed")), { variant: "error" });
    }
  };

  const remove = async (tier: Tier) => {
    setDeleting(null);
    try {
      await deleteTier(tier.id);
      enqueueSnackbar(t("admin.tierDeleted"), { variant: "success" });
      await queryClient.invalidateQueries({ queryKey: ["admin"] });
    } catch (error) {
      enqueueSnackbar(errorText(error, t("common.failed")), { variant: "error" });
    }
  };

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
      {tiers.isPending && <CircularProgress aria-label={t("common.loading")} />}
      {tiers.isError && <Typography color="error">{errorText(tiers.error, t("common.failed"))}</Typography>}
      {tiers.data?.length === 0 && <Typography color="text.secondary">{t("admin.noTiers")}</Typography>}
      {tiers.data && tiers.data.length > 0 && (
        <TableContainer component={Paper}>
          <Table aria-label={t("nav.adminTiers")}>
            <TableHead>
              <TableRow>
                {[
                  "name",
                  "price",
                  "max_assistants",
                  "minutes_per_month",
                  "concurrent_calls",
                  "max_workspaces",
                  "users",
                ].map((c) => (
                  <TableCell key={c}>{t(`admin.tierFields.${c}`)}</TableCell>
                ))}
                <TableCell align="right">{t("common.actions")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {tiers.data.map((tier) => (
                <TableRow key={tier.id}>
                  <TableCell>{tier.name}</TableCell>
                  <TableCell>{tier.price.toFixed(2)}</TableCell>
                  <TableCell>{tier.max_assistants}</TableCell>
                  <TableCell>{tier.minutes_per_month}</TableCell>
                  <TableCell>{tier.concurrent_calls}</TableCell>
                  <TableCell>{tier.max_workspaces}</TableCell>
                  <TableCell>{tier.user_count}</TableCell>
                  <TableCell align="right">
                    <IconButton
                      aria-label={t("admin.editTierNamed", { name: tier.name })}
                      onClick={() => setEditing(tier)}
                    >
                      <EditOutlined />
                    </IconButton>
                    <IconButton
                      aria-label={t("admin.deleteTierNamed", { name: tier.name })}
                      onClick={() => setDeleting(tier)}
                    >
                      <DeleteOutline />
                    </IconButton>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {editing && (
        <TierDialog open tier={editing === "new" ? null : editing} onClose={() => setEditing(null)} onSubmit={save} />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t("admin.deleteTierTitle")}
        text={t("admin.deleteTierText", { name: deleting?.name ?? "" })}
        confirmLabel={t("admin.delete")}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
      />
    </>
  );
}
