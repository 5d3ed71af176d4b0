import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";

/** Grey rows standing in for a list while it loads; announced once by its label. */
export function ListSkeleton({ label, rows = 3, height = 56 }: { label: string; rows?: number; height?: number }) {
  return (
    <Stack spacing={1} role="status" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <Skeleton key={i} variant="rounded" height={height} />
      ))}
    </Stack>
  );
}

/** What an empty list says: a heading, a hint of what to do, and usually the action that does it. */
export function EmptyState({ title, hint, action }: { title: string; hint: string; action?: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 4, textAlign: "center" }}>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: action ? 2 : 0 }}>
        {hint}
      </Typography>
      {action}
    </Paper>
  );
}
