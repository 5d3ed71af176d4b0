import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { InviteBody, type Workspace, type WorkspaceMember, WorkspaceRole } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { SectionCard } from "../../../components/section-card.tsx";
import { visuallyHidden } from "../../../components/visually-hidden.ts";
import { useAuth } from "../../../lib/auth-context.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";
import {
  useChangeRole,
  useInviteMember,
  useRemoveMember,
  useRevokeInvitation,
  useWorkspaceUsers,
} from "../api/workspace-api.ts";

/** Members and invitations of a workspace: invite, change role, remove (owners). */
export function MembersCard({ workspace }: { workspace: Workspace }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const users = useWorkspaceUsers();
  const inviteMember = useInviteMember();
  const revokeInvitation = useRevokeInvitation();
  const changeRole = useChangeRole();
  const removeMember = useRemoveMember();
  const inviteForm = useSchemaForm(InviteBody, { email: "", role: "member" });
  const [removing, setRemoving] = useState<WorkspaceMember | null>(null);
  const owner = workspace.role === "owner";

  const { run } = useNotice();

  const invite = inviteForm.handleSubmit(async (values) => {
    if (await run(inviteMember.mutateAsync(values), t("workspaces.invited", { email: values.email }))) {
      inviteForm.reset({ email: "", role: values.role });
    }
  });

  return (
    <SectionCard title={t("workspaces.members")}>
      {owner && (
        <Stack
          component="form"
          direction={{ xs: "column", sm: "row" }}
          spacing={1}
          sx={{ mb: 2, alignItems: "flex-start" }}
          onSubmit={invite}
          noValidate
        >
          <FormTextField
            control={inviteForm.control}
            name="email"
            size="small"
            type="email"
            label={t("workspaces.inviteEmail")}
            required
            sx={{ flex: 1 }}
          />
          <FormTextField
            control={inviteForm.control}
            name="role"
            size="small"
            select
            label={t("workspaces.role")}
            sx={{ minWidth: 130 }}
          >
            <MenuItem value="member">{t("workspaces.roles.member")}</MenuItem>
            <MenuItem value="owner">{t("workspaces.roles.owner")}</MenuItem>
          </FormTextField>
          <Button type="submit" variant="contained">
            {t("workspaces.invite")}
          </Button>
        </Stack>
      )}
      {users.isPending ? (
        <CircularProgress aria-label={t("common.loading")} />
      ) : users.isError ? (
        <Typography color="error">{errorText(users.error, t("common.failed"))}</Typography>
      ) : (
        <Table size="small" aria-label={t("workspaces.members")}>
          <TableHead>
            <TableRow>
              <TableCell>{t("workspaces.member")}</TableCell>
              <TableCell>{t("workspaces.role")}</TableCell>
              <TableCell align="right">
                <Box component="span" sx={visuallyHidden}>
                  {t("common.actions")}
                </Box>
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {users.data.data.map((m) => (
              <TableRow key={m.id}>
                <TableCell>
                  <Typography variant="body2">{m.name}</Typography>
                  <Typography variant="caption" color="text.secondary">
                    {m.email}
                  </Typography>
                </TableCell>
                <TableCell>
                  {owner ? (
                    <TextField
                      select
                      size="small"
                      value={m.role}
                      onChange={(e) =>
                        void run(
                          changeRole.mutateAsync({ userId: m.id, role: WorkspaceRole.parse(e.target.value) }),
                          t("workspaces.roleChanged"),
                        )
                      }
                      slotProps={{ htmlInput: { "aria-label": t("workspaces.roleOf", { name: m.name }) } }}
                    >
                      <MenuItem value="member">{t("workspaces.roles.member")}</MenuItem>
                      <MenuItem value="owner">{t("workspaces.roles.owner")}</MenuItem>
                    </TextField>
                  ) : (
                    t(`workspaces.roles.${m.role}`)
                  )}
                </TableCell>
                <TableCell align="right">
                  {(owner || m.id === user?.id) && (
                    <IconButton
                      aria-label={t("workspaces.removeMember", { name: m.name })}
                      onClick={() => setRemoving(m)}
                    >
                      <DeleteOutline />
                    </IconButton>
                  )}
                </TableCell>
              </TableRow>
            ))}
            {users.data.invitations.map((i) => (
              <TableRow key={i.id}>
                <TableCell>
                  <Typography variant="body2">{i.email}</Typography>
                  <Typography variant="caption" color="text.secondary">
                    {t("workspaces.pending")}
                  </Typography>
                </TableCell>
                <TableCell>{t(`workspaces.roles.${i.role}`)}</TableCell>
                <TableCell align="right">
                  {owner && (
                    <Button
                      size="small"
                      onClick={() => void run(revokeInvitation.mutateAsync(i.id), t("workspaces.revoked"))}
                    >
                      {t("workspaces.revoke")}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <ConfirmDialog
        open={removing !== null}
        title={t("workspaces.removeTitle")}
        text={t("workspaces.removeText", { name: removing?.name ?? "", workspace: workspace.name })}
        confirmLabel={t("workspaces.remove")}
        onClose={() => setRemoving(null)}
        onConfirm={() => {
          const member = removing;
          setRemoving(null);
          if (member) void run(removeMember.mutateAsync(member.id), t("workspaces.removed"));
        }}
      />
    </SectionCard>
  );
}
