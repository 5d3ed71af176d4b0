import Box from "@mui/material/Box";
import type { WidgetAppearance } from "@parley/contract";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { previewDocument } from "../forms/widget-form.ts";

/** Redrawing on every keystroke would restart the frame while typing; this waits for a pause. */
const SETTLE_MS = 400;

/**
 * The real embed script in a frame, drawn with the appearance being edited (not yet saved). Calls
 * started here are real calls of the widget's assistant: Parley's own origin may always preview.
 */
export function WidgetPreview(props: { scriptUrl: string; publicKey: string; appearance: WidgetAppearance }) {
  const { t } = useTranslation(["call-widgets", "translation"], { nsMode: "fallback" });
  const wanted = previewDocument(props.scriptUrl, props.publicKey, props.appearance, t("previewNote"));
  const [doc, setDoc] = useState(wanted);
  useEffect(() => {
    const timer = setTimeout(() => setDoc(wanted), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [wanted]);
  return (
    <Box
      component="iframe"
      title={t("previewTitle")}
      srcDoc={doc}
      allow="microphone; autoplay"
      data-testid="widget-preview"
      sx={{ width: "100%", height: 620, border: 1, borderColor: "divider", borderRadius: 1, display: "block" }}
    />
  );
}
