import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { CenteredSpinner } from "../../../components/centered-spinner.tsx";

/** The builder's three columns: palette, canvas, side panel (stacked on a narrow screen). */
export const builderGrid = {
  display: "grid",
  gridTemplateColumns: { xs: "1fr", md: "170px minmax(0, 1fr) 380px" },
  gridTemplateRows: { xs: "auto 480px auto", md: "1fr" },
  height: { md: "calc(100vh - 230px)" },
  minHeight: { md: 560 },
  overflow: "hidden",
} as const;

/** The palette's and the side panel's column: scrolls inside; its border faces the canvas on wide screens. */
export const sideColumn = { borderColor: "divider", minHeight: 0, display: "flex", flexDirection: "column" } as const;

/** The palette's title and how to use it. */
export function PaletteIntro() {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  return (
    <>
      <Typography variant="subtitle2" component="h2">
        {t("palette.title")}
      </Typography>
      <Typography variant="caption" color="text.secondary">
        {t("palette.hint")}
      </Typography>
    </>
  );
}

/**
 * The builder's place while its workflow loads: the way back, and the columns with the palette's
 * words and a spinner where the canvas goes. It is also the page's pre-rendered frame, so a
 * returning user sees the builder's outline at once instead of a blank page until its code (the
 * flow canvas library above all) has arrived and run.
 */
export function BuilderLoading(props: { heading?: ReactNode }) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  return (
    <Stack spacing={2}>
      {props.heading}
      <Paper variant="outlined" sx={builderGrid}>
        <Box sx={{ ...sideColumn, borderInlineEnd: { md: 1 } }}>
          <Stack spacing={1} sx={{ p: 1.5 }}>
            <PaletteIntro />
          </Stack>
        </Box>
        <Box sx={{ minHeight: 0, position: "relative" }} role="region" aria-label={t("canvas.label")}>
          <CenteredSpinner />
        </Box>
        <Box sx={{ ...sideColumn, borderInlineStart: { md: 1 } }} />
      </Paper>
    </Stack>
  );
}
