/** Where the API lives: same origin /api/v1 unless VITE_API_BASE_URL says otherwise. */
export const API_BASE_URL: string =
  (import.meta.env.VITE_API_BASE_URL as string | undefined)?.replace(/\/+$/, "") ?? "/api/v1";
