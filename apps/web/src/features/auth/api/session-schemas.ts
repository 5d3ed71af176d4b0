// The schemas that check the session's answers, in a chunk of their own that session-api.ts loads
// when an answer arrives: a visitor on the sign-in page never downloads zod or the contract.
import "../../../lib/zod-without-eval.ts";
import { MessageResponse, SessionUser, Workspace } from "@parley/contract";
import { z } from "zod";

export { MessageResponse, SessionUser };

/** The list may come bare or wrapped in `data` (spec §3). */
export const WorkspaceList = z.union([
  z.array(Workspace),
  z.object({ data: z.array(Workspace) }).transform((body) => body.data),
]);
