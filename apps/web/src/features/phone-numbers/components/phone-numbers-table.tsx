import DeleteOutline from "@mui/icons-material/DeleteOutline";
import PhoneForwardedOutlined from "@mui/icons-material/PhoneForwardedOutlined";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import type { PhoneNumber } from "@parley/contract";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import type { usePhoneNumbers } from "../../../api/phone-numbers.ts";
import { type Column, ResourceTable, type RowAction } from "../../../components/resource-table.tsx";
import { RetryAlert } from "../../../components/retry-alert.tsx";
import { paths } from "../../../config/paths.ts";
import { NumberCell } from "./number-cell.tsx";
import { nameDirection, nameOf } from "./number-name.ts";
import { phoneProviderLabel } from "./provider-names.ts";

export type PhoneNumberAction = "call" | "delete";

/** The workspace's numbers: name (opens the number), number and country, provider, both assistants. */
export function PhoneNumbersTable(props: {
  numbers: ReturnType<typeof usePhoneNumbers>;
  empty: ReactNode;
  onAction: (action: PhoneNumberAction, number: PhoneNumber) => void;
}) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const { numbers } = props;
  // The shared table says what failed; a list page also offers to ask again.
  if (numbers.error && !numbers.isPending) {
    return (
      <RetryAlert
        error={numbers.error}
        fallback={t("loadFailed")}
        retryLabel={t("retry")}
        onRetry={() => void numbers.refetch()}
      />
    );
  }
  const assistant = (name: string | null) =>
    name ?? (
      <Typography variant="body2" color="text.secondary" component="span">
        {t("none")}
      </Typography>
    );
  const columns: Column<PhoneNumber>[] = [
    {
      header: t("columns.name"),
      cell: (row) => (
        <Link component={RouterLink} to={`${paths.phoneNumbers}/${row.id}`} sx={{ fontWeight: 600 }}>
          <span dir={nameDirection(nameOf(row))}>{nameOf(row)}</span>
        </Link>
      ),
    },
    { header: t("columns.number"), cell: (row) => <NumberCell number={row.number} country={row.country} /> },
    { header: t("columns.provider"), cell: (row) => phoneProviderLabel(row.provider, t) },
    {
      header: t("columns.inbound"),
      cell: (row) => (row.squad_name ? t("squadOption", { name: row.squad_name }) : assistant(row.agent_name)),
    },
    { header: t("columns.outbound"), cell: (row) => assistant(row.outbound_agent_name) },
  ];
  const actions: RowAction<PhoneNumber>[] = [
    {
      id: "call",
      icon: <PhoneForwardedOutlined />,
      label: (row) => t("callNamed", { name: nameOf(row) }),
      tooltip: (row) => t("callNamed", { name: nameOf(row) }),
      onClick: (row) => props.onAction("call", row),
    },
    {
      id: "delete",
      icon: <DeleteOutline />,
      label: (row) => t("deleteNamed", { name: nameOf(row) }),
      tooltip: (row) => t("deleteNamed", { name: nameOf(row) }),
      onClick: (row) => props.onAction("delete", row),
    },
  ];
  return (
    <ResourceTable
      label={t("nav.phoneNumbers")}
      query={numbers}
      empty={props.empty}
      columns={columns}
      actions={actions}
    />
  );
}
