import MenuItem from "@mui/material/MenuItem";
import type { ReactNode } from "react";

/** One choice of a select, a radio group or a set of checkboxes. */
export interface Option<V extends string | number = string> {
  value: V;
  label: ReactNode;
  disabled?: boolean;
}

/** Choices from a list of values, each named by `label` (usually a translation). */
export const optionsOf = <V extends string | number>(
  values: readonly V[],
  label: (value: V) => ReactNode = String,
): Option<V>[] => values.map((value) => ({ value, label: label(value) }));

/** A select's menu: one item per choice (as children of a `select` TextField). */
export const menuItems = (options: readonly Option<string | number>[]) =>
  options.map((option) => (
    <MenuItem key={option.value} value={option.value} disabled={option.disabled}>
      {option.label}
    </MenuItem>
  ));
