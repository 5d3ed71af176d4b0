import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { PhoneNumber } from "@parley/contract";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { DescriptionList } from "../../../components/description-list.tsx";
import { datesIn } from "../../../lib/dates-in-language.ts";
import { ExtensionStatusChip } from "./extension-status-chip.tsx";
import { NumberCell } from "./number-cell.tsx";
import { phoneProviderLabel } from "./provider-names.ts";

const MessagingIds = z.object({ phone_number_id: z.string(), business_account_id: z.string() });

/**
 * A messaging number's app ids. The contract keeps each kind's own fields under its provider's id
 * (sip_trunk, extension, and the messaging app's), so they are read by the number's provider and the
 * web names no vendor.
 */
function messagingIdsOf(number: PhoneNumber) {
  const own = Object.entries(number).find(([key]) => key === number.provider)?.[1];
  const parsed = MessagingIds.safeParse(own);
  return parsed.success ? parsed.data : null;
}

const ltr = (value: string) => <span dir="ltr">{value}</span>;

/** What a number is and how it is reached: the provider's own fields, and an extension's live registration. */
export function NumberDetails({ number }: { number: PhoneNumber }) {
  const { t, i18n } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const rows: [string, ReactNode][] = [
    [t("fields.number"), <NumberCell key="n" number={number.number} country={number.country} />],
    [t("fields.provider"), phoneProviderLabel(number.provider, t)],
  ];
  if (number.provider_number_id) rows.push([t("fields.providerNumberId"), ltr(number.provider_number_id)]);
  const trunk = number.sip_trunk;
  if (trunk) {
    rows.push(
      [t("fields.sipHost"), ltr(`${trunk.sip_host} (${trunk.transport.toUpperCase()})`)],
      [t("fields.username"), trunk.username ? ltr(trunk.username) : t("none")],
      [t("fields.password"), trunk.has_password ? t("detail.passwordSet") : t("none")],
      [t("fields.register"), trunk.register ? t("detail.yes") : t("detail.no")],
      [t("fields.allowedIps"), trunk.allowed_ips.length ? ltr(trunk.allowed_ips.join(", ")) : t("none")],
    );
  }
  const extension = number.extension;
  if (extension) {
    rows.push(
      [t("fields.ext"), ltr(extension.ext)],
      [t("fields.domain"), ltr(extension.domain)],
      [t("fields.username"), ltr(extension.username)],
      ["", <ExtensionStatusChip key="s" extension={extension.ext} domain={extension.domain} />],
    );
  }
  const messaging = messagingIdsOf(number);
  if (messaging) {
    rows.push(
      [t("fields.phoneNumberId"), ltr(messaging.phone_number_id)],
      [t("fields.businessAccountId"), ltr(messaging.business_account_id)],
    );
  }
  rows.push([t("fields.created"), datesIn(i18n.language).moment(number.created_at)]);
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        {t("detail.details")}
      </Typography>
      <DescriptionList rows={rows} columns="minmax(120px, max-content) 1fr" rowGap={1.5} />
    </Paper>
  );
}
