import AddOutlined from "@mui/icons-material/AddOutlined";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import EditOutlined from "@mui/icons-material/EditOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { AlertRule } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { CenteredSpinner } from "../../../components/centered-spinner.tsx";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { RetryAlert } from "../../../components/retry-alert.tsx";
import { SectionCard } from "../../../components/section-card.tsx";
import { useDates } from "../../../lib/dates-in-language.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import { type FilterChoice, useAlertEvents, useAlertRules, useDeleteRule } from "../api/analytics-api.ts";
import { AlertRuleDialog } from "./alert-rule-dialog.tsx";

/** The workspace's alert rules (add, change, delete) and what they did. */
export function AlertsSection({ defaultEmail, assistants }: { defaultEmail: string; assistants: FilterChoice[] }) {
  const { t } = useTranslation("analytics");
  const rules = useAlertRules();
  const events = useAlertEvents();
  const remove = useDeleteRule();
  const notice = useNotice();
  const dates = useDates();
  const [editing, setEditing] = useState<AlertRule | "new" | null>(null);
  const [deleting, setDeleting] = useState<AlertRule | null>(null);
  return (
    <Box sx={{ display: "grid", gap: 3 }}>
      <SectionCard title={t("alerts.title")}>
        <Box sx={{ display: "flex", justifyContent: "space-between", gap: 2, flexWrap: "wrap", mb: 1 }}>
          <Typography variant="body2" color="text.secondary" sx={{ flex: "1 1 240px" }}>
            {t("alerts.hint")}
          </Typography>
          <Button startIcon={<AddOutlined />} variant="outlined" onClick={() => setEditing("new")}>
            {t("alerts.add")}
          </Button>
        </Box>
        {rules.isPending ? (
          <CenteredSpinner />
        ) : rules.isError ? (
          <RetryAlert
            error={rules.error}
            fallback={t("alerts.loadFailed")}
            retryLabel={t("retry")}
            onRetry={() => void rules.refetch()}
          />
        ) : rules.data.length === 0 ? (
          <Typography color="text.secondary">{t("alerts.none")}</Typography>
        ) : (
          <List aria-label={t("alerts.title")}>
            {rules.data.map((rule) => (
              <ListItem
                key={rule.id}
                divider
                secondaryAction={
                  <Box sx={{ display: "flex", gap: 0.5 }}>
                    <IconButton
                      aria-label={t("alerts.editNamed", { name: rule.name })}
                      onClick={() => setEditing(rule)}
                    >
                      <EditOutlined />
                    </IconButton>
                    <IconButton
                      aria-label={t("alerts.deleteNamed", { name: rule.name })}
                      onClick={() => setDeleting(rule)}
                    >
                      <DeleteOutline />
                    </IconButton>
                  </Box>
                }
                sx={{ pe: 12 }}
              >
                <ListItemText
                  primary={
                    <Box
                      component="span"
                      sx={{ display: "inline-flex", gap: 1, alignItems: "center", flexWrap: "wrap" }}
                    >
                      {rule.name}
                      <Chip
                        size="small"
                        color={rule.firing ? "error" : rule.enabled ? "success" : "default"}
                        label={t(rule.firing ? "alerts.firing" : rule.enabled ? "alerts.ok" : "alerts.off")}
                      />
                    </Box>
                  }
                  secondary={t(`kindSummary.${rule.kind}`, {
                    threshold: rule.threshold,
                    calls: rule.window_calls,
                    hours: rule.window_hours,
                    component: t(`component.${rule.component}`),
                  })}
                />
              </ListItem>
            ))}
          </List>
        )}
      </SectionCard>
      <SectionCard title={t("alerts.history")}>
        {events.isPending ? (
          <CenteredSpinner />
        ) : events.isError ? (
          <RetryAlert
            error={events.error}
            fallback={t("alerts.loadFailed")}
            retryLabel={t("retry")}
            onRetry={() => void events.refetch()}
          />
        ) : events.data.length === 0 ? (
          <Typography color="text.secondary">{t("alerts.noHistory")}</Typography>
        ) : (
          <Box sx={{ overflowX: "auto" }} tabIndex={0} role="region" aria-label={t("alerts.history")}>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell scope="col">{t("alerts.when")}</TableCell>
                  <TableCell scope="col">{t("alerts.rule")}</TableCell>
                  <TableCell scope="col">{t("alerts.state")}</TableCell>
                  <TableCell scope="col">{t("alerts.what")}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {events.data.map((e) => (
                  <TableRow key={e.id}>
                    <TableCell>{dates.moment(e.created_at)}</TableCell>
                    <TableCell>{e.rule_name}</TableCell>
                    <TableCell>{t(`alerts.${e.state}`)}</TableCell>
                    <TableCell>{e.message}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
      </SectionCard>
      {editing && (
        <AlertRuleDialog
          rule={editing === "new" ? undefined : editing}
          defaultEmail={defaultEmail}
          assistants={assistants}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            notice.success(t("alerts.saved"));
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t("alerts.deleteTitle")}
        text={t("alerts.deleteText", { name: deleting?.name ?? "" })}
        confirmLabel={t("alerts.delete")}
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (!deleting) return;
          void notice.run(remove.mutateAsync(deleting.id), t("alerts.deleted")).then(() => setDeleting(null));
        }}
      />
    </Box>
  );
}
