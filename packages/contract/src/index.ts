export * from "./admin.ts";
export * from "./assistants.ts";
export * from "./auth.ts";
export * from "./common.ts";
export * from "./constants.ts";
export * from "./errors.ts";
export * from "./users.ts";
export * from "./workspaces.ts";
