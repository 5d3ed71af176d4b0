import { z } from "zod";

/** One field's complaint in a 422, for a form to show beside that field (dotted for nested fields). */
export const FieldError = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldError>;

/** The body of every error response: one sentence a person can read; a 422 adds its field errors. */
export const ErrorResponse = z.object({ detail: z.string(), errors: z.array(FieldError).optional() });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

export const MessageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

export const HealthResponse = z.object({
  status: z.enum(["ok", "degraded"]),
  database: z.enum(["ok", "unreachable"]),
});

export const IdParam = z.object({ id: z.uuid() });

/** Page of results in the admin shape of spec §3. */
export const paged = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    total_count: z.number().int(),
    page: z.number().int(),
    items_per_page: z.number().int(),
    pages: z.number().int(),
  });

export const Email = z.string().trim().toLowerCase().max(254).pipe(z.email("Enter a valid email address"));
