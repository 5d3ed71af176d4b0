import type { CreateSquadBody, Squad, SquadContextMode } from "@parley/contract";
import { CreateSquadBody as Body } from "@parley/contract";

/** A member row as the editor holds it. */
export interface MemberDraft {
  key: number;
  assistant_id: string;
  name: string;
}

/** A hand-off row; `mode` "squad" follows the squad's carry-over. */
export interface HandoffDraft {
  key: number;
  from: string;
  to: string;
  description: string;
  mode: SquadContextMode | "squad";
}

/** What the squad editor edits: the body's fields, the first member by its row, variables as text. */
export interface SquadDraft {
  name: string;
  description: string;
  members: MemberDraft[];
  firstKey: number | null;
  handoffs: HandoffDraft[];
  mode: SquadContextMode;
  variables: string;
  bridgeLine: string;
  maxHandoffs: string;
}

let nextKey = 1;
/** A key that tells rows apart while they are added and removed. */
export const rowKey = () => nextKey++;

/** The editor's start: the squad's fields, or an empty squad. */
export function draftOf(squad: Squad | null): SquadDraft {
  const members = (squad?.members ?? []).map((m) => ({ key: rowKey(), assistant_id: m.assistant_id, name: m.name }));
  const firstIndex = squad?.members.findIndex((m) => m.first) ?? -1;
  return {
    name: squad?.name ?? "",
    description: squad?.description ?? "",
    members,
    firstKey: members[firstIndex]?.key ?? members[0]?.key ?? null,
    handoffs: (squad?.handoffs ?? []).map((h) => ({
      key: rowKey(),
      from: h.from,
      to: h.to,
      description: h.description,
      mode: h.context?.mode ?? "squad",
    })),
    mode: squad?.context.mode ?? "transcript",
    variables: squad?.context.variables.join(", ") ?? "",
    bridgeLine: squad?.bridge_line ?? "",
    maxHandoffs: String(squad?.max_handoffs ?? 5),
  };
}

const variableList = (text: string) =>
  text
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);

/** A member's tool name suggested from its assistant's name ("Billing desk" → "billing_desk"). */
export function memberNameOf(assistantName: string): string {
  const slug = assistantName
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 40);
  return /^[a-z]/.test(slug) ? slug : `member_${slug}`.slice(0, 40);
}

/**
 * The request body, checked by the contract's own rules; the first rule broken is thrown with the
 * field it concerns, so the dialog shows it and keeps what was typed.
 */
export function bodyOf(draft: SquadDraft): CreateSquadBody {
  const variables = variableList(draft.variables);
  const parsed = Body.safeParse({
    name: draft.name,
    description: draft.description,
    members: draft.members.map((m) => ({
      assistant_id: m.assistant_id,
      name: m.name,
      first: m.key === draft.firstKey,
    })),
    handoffs: draft.handoffs.map((h) => ({
      from: h.from,
      to: h.to,
      description: h.description,
      context: h.mode === "squad" ? null : { mode: h.mode, variables: h.mode === "variables" ? variables : [] },
    })),
    context: { mode: draft.mode, variables: draft.mode === "variables" ? variables : [] },
    bridge_line: draft.bridgeLine.trim() || null,
    max_handoffs: Number(draft.maxHandoffs),
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(issue ? `${issue.path.join(".")}: ${issue.message}` : "Invalid squad");
}
