import { z } from "zod";

/**
 * Number inputs hand over strings: an empty one becomes "missing" (so the schema's required
 * message shows) and anything else is converted before the contract's own rule checks it.
 */
export const numberField = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" || value === null || value === undefined ? undefined : Number(value)), schema);
