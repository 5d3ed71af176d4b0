import Grid from "@mui/material/Grid";
import TextField from "@mui/material/TextField";
import { CRAWL_LIMITS, type CrawlIntensity } from "@parley/contract";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/form-dialog.tsx";
import { menuItems, optionsOf } from "../../../components/menu-options.tsx";

const INTENSITIES: CrawlIntensity[] = [1, 2, 3];

/** Crawl a site: its address and how far to follow its links. */
export function CrawlDialog(props: {
  busy: boolean;
  onClose: () => void;
  onSubmit: (body: { url: string; intensity: CrawlIntensity }) => Promise<unknown>;
}) {
  const { t } = useTranslation("knowledge-base");
  const [url, setUrl] = useState("");
  const [intensity, setIntensity] = useState<CrawlIntensity>(1);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    return props.onSubmit({ url: url.trim(), intensity });
  };
  return (
    <FormDialog
      title={t("crawlTitle")}
      onClose={props.onClose}
      onSubmit={submit}
      busy={props.busy}
      submitLabel={t("crawlStart")}
    >
      <Grid size={12}>
        <TextField
          label={t("crawlUrl")}
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          placeholder="https://example.com/help"
          type="url"
          required
          fullWidth
          autoFocus
          slotProps={{ htmlInput: { dir: "ltr" } }}
        />
      </Grid>
      <Grid size={12}>
        <TextField
          select
          label={t("crawlIntensity")}
          value={intensity}
          onChange={(event) => setIntensity(INTENSITIES.find((n) => n === Number(event.target.value)) ?? 1)}
          fullWidth
          helperText={t("crawlHelp")}
        >
          {menuItems(optionsOf(INTENSITIES, (n) => t(`intensity${n}`, { pages: CRAWL_LIMITS[n].maxPages })))}
        </TextField>
      </Grid>
    </FormDialog>
  );
}
