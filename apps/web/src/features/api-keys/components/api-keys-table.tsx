import BlockIcon from "@mui/icons-material/Block";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ApiKey } from "@parley/contract";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { type Column, ResourceTable, type RowAction } from "../../../components/resource-table.tsx";

type KeyState = "active" | "expired" | "revoked";

export function keyState(key: ApiKey, now = Date.now()): KeyState {
  if (key.revoked_at) return "revoked";
  if (key.expires_at && new Date(key.expires_at).getTime() <= now) return "expired";
  return "active";
}

/** Keys with their prefix, scopes, last use and expiry; revoking is for owners and live keys. */
export function ApiKeysTable(props: {
  keys: { data: readonly ApiKey[] | undefined; isPending: boolean; error: unknown };
  empty: ReactNode;
  canRevoke: boolean;
  onRevoke: (key: ApiKey) => void;
}) {
  const { t, i18n } = useTranslation(["api-keys", "translation"], { nsMode: "fallback" });
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });
  const when = (value: string | null, none: string) => (value ? date.format(new Date(value)) : none);
  const columns: Column<ApiKey>[] = [
    {
      header: t("fields.name"),
      cell: (key) => (
        <Stack spacing={0.5}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {key.name}
          </Typography>
          <Typography variant="caption" component="code" dir="ltr" sx={{ fontFamily: "monospace" }}>
            {key.prefix}…
          </Typography>
        </Stack>
      ),
    },
    {
      header: t("fields.scopes"),
      cell: (key) => (
        <Stack direction="row" spacing={0.5}>
          {key.scopes.map((scope) => (
            <Chip key={scope} size="small" label={t(`scopes.${scope}`)} />
          ))}
        </Stack>
      ),
    },
    {
      header: t("fields.status"),
      cell: (key) => {
        const state = keyState(key);
        return (
          <Chip
            size="small"
            variant="outlined"
            color={state === "active" ? "success" : "default"}
            label={t(`states.${state}`)}
          />
        );
      },
    },
    {
      header: t("fields.lastUsed"),
      cell: (key) =>
        key.last_used_at ? (
          <Stack spacing={0.5}>
            <span>{when(key.last_used_at, "")}</span>
            {key.last_used_ip && (
              <Typography variant="caption" color="text.secondary" dir="ltr">
                {key.last_used_ip}
              </Typography>
            )}
          </Stack>
        ) : (
          t("never")
        ),
    },
    { header: t("fields.expires"), cell: (key) => when(key.expires_at, t("noExpiry")) },
    { header: t("fields.created"), cell: (key) => when(key.created_at, "") },
  ];
  const actions: RowAction<ApiKey>[] = props.canRevoke
    ? [
        {
          id: "revoke",
          icon: <BlockIcon />,
          label: (key) => t("revokeNamed", { name: key.name }),
          tooltip: () => t("revoke"),
          onClick: props.onRevoke,
        },
      ]
    : [];
  return (
    <ResourceTable
      label={t("nav.apiKeys")}
      query={props.keys}
      empty={props.empty}
      columns={columns}
      actions={actions}
    />
  );
}
