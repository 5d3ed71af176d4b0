import ContentCopy from "@mui/icons-material/ContentCopy";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { WebhookDelivery } from "@parley/contract";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { copyText } from "../../../lib/copy-text.ts";
import { useNotice } from "../../../lib/use-notice.ts";

/** The id the row's toggle names in aria-controls. */
export const DELIVERY_BODY_ID = "webhook-delivery-body";

/**
 * The JSON body a delivery POSTed (the same on every attempt and resend), as a receiver's
 * developer wants it: readable, scrollable, copyable. Brought into view when opened, since it sits
 * under a table that may fill the dialog.
 */
export function DeliveryBody({ delivery }: { delivery: WebhookDelivery }) {
  const { t } = useTranslation(["webhooks", "translation"], { nsMode: "fallback" });
  const notice = useNotice();
  const box = useRef<HTMLElement>(null);
  const text = JSON.stringify(delivery.payload, null, 2);
  // biome-ignore lint/correctness/useExhaustiveDependencies: brought into view each time another delivery is opened.
  useEffect(() => {
    box.current?.scrollIntoView({ block: "nearest" });
  }, [delivery.id]);
  const copy = async () => {
    if (await copyText(text)) notice.success(t("bodyCopied"));
    else notice.error(t("copyBodyFailed"));
  };
  const title = t("bodyOf", { event: delivery.event_type });
  return (
    <Paper
      ref={box}
      id={DELIVERY_BODY_ID}
      component="section"
      aria-label={title}
      variant="outlined"
      sx={{ mt: 2, p: 1.5 }}
    >
      <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between", gap: 1, flexWrap: "wrap" }}>
        <Typography variant="subtitle2" component="h3">
          {title}
        </Typography>
        <Button size="small" startIcon={<ContentCopy />} onClick={() => void copy()}>
          {t("copyBody")}
        </Button>
      </Stack>
      <Typography
        component="pre"
        dir="ltr"
        tabIndex={0}
        aria-label={title}
        sx={{ m: 0, mt: 1, overflow: "auto", maxHeight: 320, fontSize: 12, fontFamily: "monospace" }}
      >
        {text}
      </Typography>
    </Paper>
  );
}
