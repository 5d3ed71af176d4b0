import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { WebhookEndpoint } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ResourceListPage } from "../../../components/resource-list-page.tsx";
import { useNotice } from "../../../lib/use-notice.ts";
import { useResourcePage } from "../../../lib/use-resource-page.ts";
import {
  type SavedWebhook,
  useDeleteWebhook,
  useSaveWebhook,
  useSendTestEvent,
  useWebhooks,
  type WebhookBody,
} from "../api/webhooks-api.ts";
import { DeliveriesDialog } from "./deliveries-dialog.tsx";
import { SecretDialog } from "./secret-dialog.tsx";
import { WEBHOOK_ACTIONS, type WebhookAction, webhookColumns } from "./webhook-columns.tsx";
import { WebhookDialog } from "./webhook-dialog.tsx";

/** Webhooks on the integrations page: endpoints that receive the workspace's events, signed. */
export function WebhooksSection() {
  const { t } = useTranslation(["webhooks", "translation"], { nsMode: "fallback" });
  const notice = useNotice();
  const webhooks = useWebhooks();
  const sendTest = useSendTestEvent();
  // The secret the create answer carried; a secret opened from a row is read when its dialog opens.
  const [created, setCreated] = useState<string | null>(null);
  const page = useResourcePage<WebhookEndpoint, WebhookAction, WebhookBody, SavedWebhook>(
    t,
    { save: useSaveWebhook(), remove: useDeleteWebhook() },
    // A new endpoint's secret is shown at once, so the receiver can be set up to verify it.
    (saved) => {
      setCreated(saved.secret);
      return saved.secret ? { kind: "secret", item: saved } : null;
    },
  );
  const act = (action: WebhookAction, endpoint: WebhookEndpoint) => {
    if (action !== "test") {
      setCreated(null);
      page.act(action, endpoint);
      return;
    }
    sendTest.mutate(endpoint.id, { onSuccess: () => notice.success(t("testSent")), onError: notice.failure });
  };
  const { open } = page;
  return (
    <section aria-labelledby="webhooks-heading">
      <ResourceListPage
        page={page}
        t={t}
        title={t("title")}
        header={(create) => (
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ mb: 2, justifyContent: "space-between" }}>
            <div>
              <Typography id="webhooks-heading" variant="h5" component="h2">
                {t("title")}
              </Typography>
              <Typography color="text.secondary">{t("subtitle")}</Typography>
            </div>
            <div>{create}</div>
          </Stack>
        )}
        query={webhooks}
        columns={webhookColumns(t)}
        actions={WEBHOOK_ACTIONS}
        vars={(endpoint) => ({ url: endpoint?.url ?? "" })}
        onAction={act}
        editor={(endpoint) => <WebhookDialog endpoint={endpoint} onClose={page.close} onSubmit={page.save} />}
      >
        {open?.kind === "secret" && <SecretDialog endpoint={open.item} initial={created} onClose={page.close} />}
        {open?.kind === "deliveries" && <DeliveriesDialog endpoint={open.item} onClose={page.close} />}
      </ResourceListPage>
    </section>
  );
}
