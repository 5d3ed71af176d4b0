import { z } from "zod";

/**
 * When a stored resource was made and last changed, as every resource response sends them
 * (ISO 8601 text). Spread last into the resource's object so the fields keep their place.
 */
export const timestamps = { created_at: z.string(), updated_at: z.string() };
