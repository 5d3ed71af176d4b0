import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PageHeader } from "../../components/page-header.tsx";
import { paths } from "../../config/paths.ts";

const NOW = [
  { key: "assistants", to: paths.assistants },
  { key: "callLogs", to: paths.callLogs },
  { key: "integrations", to: paths.integrations },
] as const;

/**
 * A section whose features arrive with their own issue: it says it is being built, what it will
 * do, and where to go meanwhile, instead of a bare heading that reads like a broken page.
 */
export default function SectionPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation("sections");
  // The router names the section by its navigation label key (nav.<section>).
  const section = titleKey.replace(/^nav\./, "");
  const points: unknown = t(`sections.${section}.points`, { returnObjects: true });
  return (
    <>
      <PageHeader title={t(titleKey)} actions={<Chip color="info" variant="outlined" label={t("badge")} />} />
      <Paper variant="outlined" sx={{ p: 3, maxWidth: 720 }} data-testid="section-plan">
        <Typography sx={{ mb: 1 }}>{t("intro")}</Typography>
        {Array.isArray(points) && (
          <Typography component="ul" sx={{ mt: 0, mb: 3, pl: 3 }}>
            {points.map((point) => (
              <li key={String(point)}>{String(point)}</li>
            ))}
          </Typography>
        )}
        <Typography variant="subtitle2" component="h2" sx={{ mb: 1 }}>
          {t("meanwhile")}
        </Typography>
        <Stack direction="row" sx={{ flexWrap: "wrap", gap: 1 }}>
          {NOW.map((link) => (
            <Button key={link.key} variant="outlined" size="small" component={Link} to={link.to}>
              {t(`now.${link.key}`)}
            </Button>
          ))}
        </Stack>
      </Paper>
    </>
  );
}
