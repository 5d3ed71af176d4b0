import type { GridProps } from "@mui/material/Grid";
import type { TextFieldProps } from "@mui/material/TextField";
import type { ReactNode } from "react";
import type { FieldPath, FieldValues } from "react-hook-form";
import type { KeyValueLabels } from "../key-value-rows.tsx";
import type { Option } from "../menu-options.tsx";

/** Where a field sits in the form's 12-column grid; a whole row unless said. */
export type GridSize = GridProps["size"];

/** Half a row from the small breakpoint up, a whole row on phones. */
export const HALF: GridSize = { xs: 12, sm: 6 };

interface Placed {
  grid?: GridSize;
  /** React's key for the cell when the name alone would not remount it (fields that follow another choice). */
  key?: string;
}

interface Named<T extends FieldValues> extends Placed {
  name: FieldPath<T>;
  label: string;
}

/**
 * What a text field may say beyond its value: the MUI TextField's own props (type, helperText,
 * slotProps…). The form owns the value and its error; React's key is the cell's (Placed).
 */
type TextProps = Omit<
  TextFieldProps,
  "name" | "value" | "onChange" | "error" | "label" | "select" | "children" | "defaultValue" | "key"
>;

/** A text field (`type` "number", "password", "url", "date"… and `multiline` included). */
export type TextSpec<T extends FieldValues> = Named<T> & TextProps & { kind?: "text" };

/** A drop-down of fixed choices. */
export type SelectSpec<T extends FieldValues> = Named<T> &
  TextProps & { kind: "select"; options: readonly Option<string | number>[] };

/** An on/off value: a switch, or a single checkbox. */
export interface ToggleSpec<T extends FieldValues> extends Named<T> {
  kind: "switch" | "checkbox";
}

/**
 * Several values from a list of choices. With `legend` the boxes are a required fieldset named by
 * the label, saying `errorText` while nothing valid is chosen; without, a row named by its
 * aria-label, with `helperText` under it.
 */
export interface CheckboxesSpec<T extends FieldValues> extends Named<T> {
  kind: "checkboxes";
  options: readonly Option<string | number>[];
  legend?: boolean;
  required?: boolean;
  errorText?: string;
  helperText?: string;
}

/** One of a few choices, as a row of radio buttons under a label. */
export interface RadiosSpec<T extends FieldValues> extends Named<T> {
  kind: "radios";
  options: readonly Option<string>[];
}

/** Editable key/value rows (HTTP headers); the field holds `KeyValueRow[]`. */
export interface KeyValueSpec<T extends FieldValues> extends Placed {
  kind: "keyValue";
  name: FieldPath<T>;
  labels: KeyValueLabels;
}

/** Anything else the form shows in a grid cell of its own (a CSV picker, a note). */
export interface NodeSpec extends Placed {
  kind: "node";
  key: string;
  node: ReactNode;
}

/** Several fields in one grid cell, one under the other with no gap (a secret and its "clear" box). */
export interface GroupSpec<T extends FieldValues> extends Placed {
  kind: "group";
  key: string;
  fields: readonly FieldSpec<T>[];
}

/** A heading over the fields that follow, with a rule above it. */
export interface HeadingSpec {
  kind: "heading";
  title: string;
}

/** One entry of a form's field list; `false`, `null` and `undefined` are skipped (`cond && spec`). */
export type FieldSpec<T extends FieldValues> =
  | TextSpec<T>
  | SelectSpec<T>
  | ToggleSpec<T>
  | CheckboxesSpec<T>
  | RadiosSpec<T>
  | KeyValueSpec<T>
  | NodeSpec
  | GroupSpec<T>
  | HeadingSpec
  | false
  | null
  | undefined;

/** Slot props of a field whose value reads left to right in every language (URLs, numbers, ids). */
export const LTR = { htmlInput: { dir: "ltr" } } as const;

/** Slot props of a phone number field: left to right, the phone keypad on touch screens. */
export const TEL = { htmlInput: { dir: "ltr", inputMode: "tel" } } as const;

/** Slot props of a field of digits (ids, extensions): left to right, the number keypad. */
export const DIGITS = { htmlInput: { dir: "ltr", inputMode: "numeric" } } as const;
