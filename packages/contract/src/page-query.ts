import { z } from "zod";

/**
 * The paging fields of a list query (GET …?page=2&items_per_page=50): a 1-based page and a page
 * size up to `maxSize`. Query strings carry text, hence the coercion.
 */
export const pageQuery = (maxSize: number, defaultSize: number) => ({
  page: z.coerce.number().int().min(1).default(1),
  items_per_page: z.coerce.number().int().min(1).max(maxSize).default(defaultSize),
});
