import { z } from "zod";
import type { GrantClaims } from "../../lib/call-runtime.ts";

/** Who may join which room: what a room token (audience "room") carries. */
export interface RoomGrant {
  room: string;
  identity: string;
  name: string;
  workspaceId: string;
  /** A widget call's token opens the socket from this page origin only (and no other token from there). */
  origin?: string;
}

/** The claims of a room token as signed; `jti` is the token id of the one-use rule. */
export const RoomGrantClaims = z.object({
  room: z.string(),
  name: z.string(),
  workspace_id: z.string(),
  origin: z.string().optional(),
  sub: z.string().min(1),
  jti: z.string().min(1),
  exp: z.number().positive(),
});
export type RoomGrantClaims = z.infer<typeof RoomGrantClaims>;

export function roomGrantClaims(grant: RoomGrant): GrantClaims {
  return {
    room: grant.room,
    name: grant.name,
    workspace_id: grant.workspaceId,
    origin: grant.origin,
    sub: grant.identity,
  };
}
