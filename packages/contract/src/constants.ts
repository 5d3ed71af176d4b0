/**
 * Business constants and limits of spec §9, shared by server and web. Also the zod-free subpath
 * `@parley/contract/constants`: the web app's first load reads these without downloading zod, so
 * this module must import nothing (least of all a schema).
 */
export const ADMIN_USERS_PAGE_SIZE = 10;
export const BATCH_CALLS_PAGE_SIZE = 10;
export const MCP_SERVERS_LIST_LIMIT = 100;
export const MCP_SERVER_DEFAULT_TIMEOUT_SECONDS = 30;
export const FALLBACK_WORKSPACE_CONCURRENCY_LIMIT = 0;
/** Concurrency limit a newly created workspace starts with. */
export const DEFAULT_WORKSPACE_CONCURRENCY_LIMIT = 5;

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
export const MAGIC_LINK_TTL_SECONDS = 15 * 60;
export const PASSWORD_RESET_TTL_SECONDS = 60 * 60;
export const INVITATION_TTL_SECONDS = 14 * 24 * 60 * 60;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** Browser storage keys of spec §3. */
export const STORAGE_KEYS = {
  accessToken: "access_token",
  refreshToken: "refresh_token",
  lastWorkspace: "last_workspace",
} as const;

export const REFRESH_COOKIE_NAME = "parley_refresh";
export const API_BASE_PATH = "/api/v1";
