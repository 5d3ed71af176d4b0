import MoreVert from "@mui/icons-material/MoreVert";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { AdminUser, Tier } from "@parley/contract";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { useNotice } from "../../../lib/use-notice.ts";
import {
  useAdminUsers,
  useAssignTier,
  useDeactivateUser,
  useDeleteUser,
  useReactivateUser,
  useRemoveTier,
  useTiers,
} from "../api/admin-api.ts";
import { limitsSummary } from "../components/limits-summary.ts";
import { OverrideChip } from "../components/override-chip.tsx";

/**
 * The action waiting for the admin's confirmation. Tier changes ask too: they change what the user
 * may use at once, and the dialog says what happens to the tier's limits and to an override.
 */
type Pending =
  | { kind: "deactivate" | "delete" | "removeTier"; user: AdminUser }
  | { kind: "assignTier"; user: AdminUser; tier: Tier }
  | null;

/** The confirmation dialog's wording for each pending action. */
function useConfirmation(pending: Pending) {
  const { t, i18n } = useTranslation(["admin", "translation"], { nsMode: "fallback" });
  if (!pending) return { title: "", text: "", confirmLabel: "" };
  const name = pending.user.name;
  switch (pending.kind) {
    case "assignTier": {
      const tier = pending.tier.name;
      const text = t("assignTierText", { name, tier, limits: limitsSummary(t, pending.tier, i18n.language) });
      return {
        title: t("assignTierTitle", { name, tier }),
        text: pending.user.is_enterprise ? `${text} ${t("assignTierKeepsOverride", { name })}` : text,
        confirmLabel: t("assignTierConfirm"),
      };
    }
    case "removeTier":
      return {
        title: t("removeTierTitle", { name, tier: pending.user.tier_name ?? "" }),
        text: t(pending.user.is_enterprise ? "removeTierKeepsOverride" : "removeTierText", { name }),
        confirmLabel: t("removeTierConfirm"),
      };
    case "delete":
      return { title: t("admin.deleteTitle"), text: t("admin.deleteText", { name }), confirmLabel: t("admin.delete") };
    case "deactivate":
      return {
        title: t("admin.deactivateTitle"),
        text: t("admin.deactivateText", { name }),
        confirmLabel: t("admin.deactivate"),
      };
  }
}

export default function AdminUsersPage() {
  const { t } = useTranslation(["admin", "translation"], { nsMode: "fallback" });
  const notice = useNotice();
  const [page, setPage] = useState(0);
  const [searchInput, setSearchInput] = useState("");
  const [search, setSearch] = useState("");
  const [menu, setMenu] = useState<{ anchor: HTMLElement; user: AdminUser } | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const users = useAdminUsers(page + 1, search);
  const tiers = useTiers();
  const assignTier = useAssignTier();
  const removeTier = useRemoveTier();
  const deactivateUser = useDeactivateUser();
  const deleteUser = useDeleteUser();
  const reactivateUser = useReactivateUser();
  // The dialog keeps its wording while it fades out after a choice (pending is already null then).
  const shown = useRef<Pending>(null);
  if (pending) shown.current = pending;
  const confirmation = useConfirmation(pending ?? shown.current);

  // Debounced search; the page goes back to the first only when the search really changed, so a
  // quick click on "next page" right after the list appears is not undone.
  useEffect(() => {
    const next = searchInput.trim();
    if (next === search) return;
    const timer = setTimeout(() => {
      setSearch(next);
      setPage(0);
    }, 300);
    return () => clearTimeout(timer);
  }, [searchInput, search]);

  const run = async (action: () => Promise<unknown>, success: string) => {
    setMenu(null);
    await notice.run(action(), success);
  };

  return (
    <>
      <PageHeader title={t("nav.adminUsers")} />
      <TextField
        label={t("admin.searchUsers")}
        value={searchInput}
        onChange={(e) => setSearchInput(e.target.value)}
        size="small"
        sx={{ mb: 2, width: { xs: "100%", sm: 360 } }}
        type="search"
      />
      <TableContainer component={Paper}>
        <Table aria-label={t("nav.adminUsers")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("admin.user")}</TableCell>
              <TableCell>{t("admin.tier")}</TableCell>
              <TableCell>{t("admin.status")}</TableCell>
              <TableCell align="right">{t("common.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {users.isPending && (
              <TableRow>
                <TableCell colSpan={4} align="center">
                  <CircularProgress aria-label={t("common.loading")} />
                </TableCell>
              </TableRow>
            )}
            {users.isError && (
              <TableRow>
                <TableCell colSpan={4}>
                  <Typography color="error">{errorText(users.error, t("common.failed"))}</Typography>
                </TableCell>
              </TableRow>
            )}
            {users.data?.data.length === 0 && (
              <TableRow>
                <TableCell colSpan={4} align="center">
                  {t("admin.noUsers")}
                </TableCell>
              </TableRow>
            )}
            {users.data?.data.map((u) => (
              <TableRow key={u.id} hover>
                <TableCell>
                  <Typography variant="body2" sx={{ fontWeight: 600 }}>
                    {u.name} {u.is_superuser && <Chip size="small" label={t("profile.superuser")} sx={{ ml: 1 }} />}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {u.email} · {u.username}
                  </Typography>
                </TableCell>
                <TableCell>
                  {u.tier_name ?? t("admin.noTier")}
                  {u.is_enterprise && <OverrideChip />}
                </TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={u.is_active ? "success" : "default"}
                    label={u.is_active ? t("admin.active") : t("admin.deactivated")}
                  />
                </TableCell>
                <TableCell align="right">
                  <IconButton
                    aria-label={t("admin.actionsFor", { name: u.name })}
                    onClick={(e) => setMenu({ anchor: e.currentTarget, user: u })}
                  >
                    <MoreVert />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <TablePagination
          component="div"
          count={users.data?.total_count ?? 0}
          page={page}
          onPageChange={(_, p) => setPage(p)}
          rowsPerPage={10}
          rowsPerPageOptions={[10]}
        />
      </TableContainer>
      <Menu anchorEl={menu?.anchor} open={Boolean(menu)} onClose={() => setMenu(null)}>
        {menu &&
          (tiers.data ?? []).map((tier) => (
            <MenuItem
              key={tier.id}
              onClick={() => {
                setPending({ kind: "assignTier", user: menu.user, tier });
                setMenu(null);
              }}
            >
              {t("admin.assignTier", { tier: tier.name })}
            </MenuItem>
          ))}
        {menu?.user.tier_id && (
          <MenuItem
            onClick={() => {
              setPending({ kind: "removeTier", user: menu.user });
              setMenu(null);
            }}
          >
            {t("admin.removeTier")}
          </MenuItem>
        )}
        {menu?.user.is_active ? (
          <MenuItem
            onClick={() => {
              setPending({ kind: "deactivate", user: menu.user });
              setMenu(null);
            }}
          >
            {t("admin.deactivate")}
          </MenuItem>
        ) : (
          menu && (
            <MenuItem onClick={() => void run(() => reactivateUser.mutateAsync(menu.user.id), t("admin.reactivated"))}>
              {t("admin.reactivate")}
            </MenuItem>
          )
        )}
        {menu && (
          <MenuItem
            sx={{ color: "error.main" }}
            onClick={() => {
              setPending({ kind: "delete", user: menu.user });
              setMenu(null);
            }}
          >
            {t("admin.delete")}
          </MenuItem>
        )}
      </Menu>
      <ConfirmDialog
        open={pending !== null}
        title={confirmation.title}
        text={confirmation.text}
        confirmLabel={confirmation.confirmLabel}
        onClose={() => setPending(null)}
        onConfirm={() => {
          const current = pending;
          setPending(null);
          if (!current) return;
          const userId = current.user.id;
          if (current.kind === "assignTier") {
            const { tier } = current;
            void run(
              () => assignTier.mutateAsync({ userId, tierId: tier.id }),
              t("admin.tierAssigned", { tier: tier.name }),
            );
          } else if (current.kind === "removeTier") {
            void run(() => removeTier.mutateAsync(userId), t("admin.tierRemoved"));
          } else if (current.kind === "delete") {
            void run(() => deleteUser.mutateAsync(userId), t("admin.deleted"));
          } else {
            void run(() => deactivateUser.mutateAsync(userId), t("admin.deactivatedNotice"));
          }
        }}
      />
    </>
  );
}
