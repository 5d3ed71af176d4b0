import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";

/** Label and value pairs as a description list: labels in the first grid column, values in the second. */
export function DescriptionList(props: {
  rows: readonly (readonly [string, ReactNode])[];
  /** The grid's columns (CSS grid-template-columns), per breakpoint if need be. */
  columns: string | Partial<Record<"xs" | "sm" | "md" | "lg", string>>;
  rowGap: number;
}) {
  return (
    <Box
      component="dl"
      sx={{ display: "grid", gridTemplateColumns: props.columns, columnGap: 3, rowGap: props.rowGap, m: 0 }}
    >
      {props.rows.map(([label, value], index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a list's rows are fixed while it is shown
        <div key={index} style={{ display: "contents" }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0 }}>
            {value}
          </Typography>
        </div>
      ))}
    </Box>
  );
}
