import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";

/** A card of a settings page: its heading (level 2), then its content; `gap` is the space under the heading. */
export function SectionCard(props: { title: string; gap?: 1 | 2; children: ReactNode }) {
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: props.gap ?? 2 }}>
          {props.title}
        </Typography>
        {props.children}
      </CardContent>
    </Card>
  );
}
