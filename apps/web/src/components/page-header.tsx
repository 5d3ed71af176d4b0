import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";

export function PageHeader({ title, subtitle, actions }: { title: string; subtitle?: string; actions?: ReactNode }) {
  return (
    <Stack
      direction={{ xs: "column", sm: "row" }}
      spacing={2}
      sx={{ mb: 3, alignItems: { sm: "center" }, justifyContent: "space-between" }}
    >
      <div>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 700 }}>
          {title}
        </Typography>
        {subtitle && <Typography color="text.secondary">{subtitle}</Typography>}
      </div>
      {actions && (
        // Actions wrap onto a second line instead of running past the screen's edge: on a phone a
        // row of three buttons is wider than the page, and the last (often the primary) was cut off.
        // useFlexGap spaces wrapped lines too, where Stack's margins would leave them touching.
        <Stack
          direction="row"
          spacing={1}
          useFlexGap
          sx={{ flexWrap: "wrap", alignItems: "center", justifyContent: { sm: "flex-end" }, minWidth: 0 }}
        >
          {actions}
        </Stack>
      )}
    </Stack>
  );
}
