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
import type { AdminUser } from "@parley/contract";
import { useEffect, useState } from "react";
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

type Pending = { kind: "deactivate" | "delete"; user: AdminUser } | null;

export default function AdminUsersPage() {
  const { t } = useTranslation();
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
                <TableCell>{u.tier_name ?? t("admin.noTier")}</TableCell>
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
              onClick={() =>
                void run(
                  () => assignTier.mutateAsync({ userId: menu.user.id, tierId: tier.id }),
                  t("admin.tierAssigned", { tier: tier.name }),
                )
              }
            >
              {t("admin.assignTier", { tier: tier.name })}
            </MenuItem>
          ))}
        {menu?.user.tier_id && (
          <MenuItem onClick={() => void run(() => removeTier.mutateAsync(menu.user.id), t("admin.tierRemoved"))}>
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
        title={pending?.kind === "delete" ? t("admin.deleteTitle") : t("admin.deactivateTitle")}
        text={t(pending?.kind === "delete" ? "admin.deleteText" : "admin.deactivateText", {
          name: pending?.user.name ?? "",
        })}
        confirmLabel={pending?.kind === "delete" ? t("admin.delete") : t("admin.deactivate")}
        onClose={() => setPending(null)}
        onConfirm={() => {
          const current = pending;
          setPending(null);
          if (!current) return;
          if (current.kind === "delete") void run(() => deleteUser.mutateAsync(current.user.id), t("admin.deleted"));
          else void run(() => deactivateUser.mutateAsync(current.user.id), t("admin.deactivatedNotice"));
        }}
      />
    </>
  );
}
