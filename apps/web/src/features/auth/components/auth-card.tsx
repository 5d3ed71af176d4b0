import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Typography from "@mui/material/Typography";
import { type ReactNode, useEffect } from "react";
import { FORMS_LIVE_EVENT } from "../../../lib/forms-live.ts";

/** The centred card every visitor page sits in. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  // The sign-in page is pre-rendered: its forms are live from here on (see main.tsx).
  useEffect(() => {
    window.dispatchEvent(new Event(FORMS_LIVE_EVENT));
  }, []);
  return (
    <Box
      component="main"
      sx={{ minHeight: "100vh", display: "grid", placeItems: "center", p: 2, bgcolor: "background.default" }}
    >
      <Card sx={{ width: "100%", maxWidth: 440 }}>
        <CardContent sx={{ p: 4 }}>
          <Typography variant="h5" component="p" sx={{ fontWeight: 800, color: "primary.main", mb: 2 }}>
            Parley
          </Typography>
          <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: subtitle ? 1 : 3 }}>
            {title}
          </Typography>
          {subtitle && (
            <Typography color="text.secondary" sx={{ mb: 3 }}>
              {subtitle}
            </Typography>
          )}
          {children}
        </CardContent>
      </Card>
    </Box>
  );
}
