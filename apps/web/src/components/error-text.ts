/** The message to show for a failure: an ApiError's mapped text, else a generic fallback. */
export const errorText = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback;
