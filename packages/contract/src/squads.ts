import { z } from "zod";
import { timestamps } from "./resource-fields.ts";

/**
 * Squads (issue 31): a named set of a workspace's assistants that pass one live call between them.
 * Each member is known by a short name, which names its hand-off tool (`handoff_to_<name>`); the
 * hand-offs list who may pass the caller to whom, with the description the model reads to decide.
 * Exactly one member answers first.
 */

export const SQUAD_MAX_MEMBERS = 10;
export const SQUAD_MAX_HANDOFFS = 90;
export const SQUAD_MAX_HANDOFFS_PER_CALL = 20;
export const SQUAD_DEFAULT_HANDOFFS_PER_CALL = 5;
/** The prefix of every hand-off tool's name; the member's name follows. */
export const HANDOFF_TOOL_PREFIX = "handoff_to_";

/** Lowercase letters, digits and underscores: a tool name any model provider accepts. */
export const SquadMemberName = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_]{0,39}$/, "Use 1–40 lowercase letters, digits or underscores, starting with a letter");

export const SquadMember = z.object({
  assistant_id: z.uuid(),
  name: SquadMemberName,
  /** The member that answers the call. */
  first: z.boolean().default(false),
});
export type SquadMember = z.infer<typeof SquadMember>;

/**
 * What the next assistant is given of the call so far: the whole transcript, a summary the call's
 * model writes at the hand-off, or only the named call variables.
 */
export const SquadContextMode = z.enum(["transcript", "summary", "variables"]);
export type SquadContextMode = z.infer<typeof SquadContextMode>;

const VariableName = z
  .string()
  .trim()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, "Variable names are letters, digits and underscores");

export const SquadContext = z.object({
  mode: SquadContextMode.default("transcript"),
  /** The call variables carried in "variables" mode. */
  variables: z.array(VariableName).max(50).default([]),
});
export type SquadContext = z.infer<typeof SquadContext>;

const BridgeLine = z.string().trim().max(500).nullable();

export const SquadHandoff = z.object({
  from: SquadMemberName,
  to: SquadMemberName,
  /** When to hand off: the model reads it as the tool's description. */
  description: z.string().trim().min(1, "Say when to hand off").max(500),
  /** This hand-off's own carry-over; the squad's when left out. */
  context: SquadContext.nullable().default(null),
  /** Said before the hand-off; the squad's when left out, none when "". */
  bridge_line: BridgeLine.default(null),
});
export type SquadHandoff = z.infer<typeof SquadHandoff>;

const SquadFields = {
  name: z.string().trim().min(1, "Name is required").max(100),
  description: z.string().trim().max(1000).default(""),
  members: z
    .array(SquadMember)
    .min(1, "A squad needs at least one member")
    .max(SQUAD_MAX_MEMBERS, `A squad has at most ${SQUAD_MAX_MEMBERS} members`),
  handoffs: z.array(SquadHandoff).max(SQUAD_MAX_HANDOFFS).default([]),
  context: SquadContext.default({ mode: "transcript", variables: [] }),
  /** Said by the handing-off assistant before the next one takes over ("Let me pass you to …"). */
  bridge_line: BridgeLine.default(null),
  /** Hand-offs one call may make; past it the hand-off tool answers an error to the model. */
  max_handoffs: z.number().int().min(1).max(SQUAD_MAX_HANDOFFS_PER_CALL).default(SQUAD_DEFAULT_HANDOFFS_PER_CALL),
};

type SquadShape = {
  members: SquadMember[];
  handoffs: SquadHandoff[];
  context: SquadContext;
};

/** The rules no single field can check: one first member, unique names, hand-offs between members. */
export function squadIssues(squad: SquadShape): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const firsts = squad.members.filter((m) => m.first).length;
  if (firsts !== 1) issues.push({ path: ["members"], message: "Exactly one member must answer first" });
  const names = new Set<string>();
  const assistants = new Set<string>();
  squad.members.forEach((member, i) => {
    if (names.has(member.name))
      issues.push({ path: ["members", i, "name"], message: `"${member.name}" is used twice` });
    if (assistants.has(member.assistant_id))
      issues.push({ path: ["members", i, "assistant_id"], message: "Each assistant can be a member once" });
    names.add(member.name);
    assistants.add(member.assistant_id);
  });
  const pairs = new Set<string>();
  squad.handoffs.forEach((handoff, i) => {
    for (const end of ["from", "to"] as const) {
      if (!names.has(handoff[end]))
        issues.push({ path: ["handoffs", i, end], message: `"${handoff[end]}" is not a member of the squad` });
    }
    if (handoff.from === handoff.to)
      issues.push({ path: ["handoffs", i, "to"], message: "A member cannot hand off to itself" });
    const pair = `${handoff.from}→${handoff.to}`;
    if (pairs.has(pair)) issues.push({ path: ["handoffs", i], message: `The hand-off ${pair} is listed twice` });
    pairs.add(pair);
    if (handoff.context?.mode === "variables" && handoff.context.variables.length === 0)
      issues.push({ path: ["handoffs", i, "context", "variables"], message: "Name the variables to carry" });
  });
  if (squad.context.mode === "variables" && squad.context.variables.length === 0)
    issues.push({ path: ["context", "variables"], message: "Name the variables to carry" });
  return issues;
}

function refineSquad(squad: SquadShape, ctx: z.RefinementCtx): void {
  for (const issue of squadIssues(squad)) ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
}

export const CreateSquadBody = z.object(SquadFields).superRefine(refineSquad);
export type CreateSquadBody = z.infer<typeof CreateSquadBody>;

/** PUT: the whole squad, as create takes it. */
export const UpdateSquadBody = CreateSquadBody;
export type UpdateSquadBody = CreateSquadBody;

export const Squad = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  members: z.array(SquadMember),
  handoffs: z.array(SquadHandoff),
  context: SquadContext,
  bridge_line: z.string().nullable(),
  max_handoffs: z.number().int(),
  ...timestamps,
});
export type Squad = z.infer<typeof Squad>;

export const SquadListResponse = z.object({ squads: z.array(Squad), total: z.number().int() });
export type SquadListResponse = z.infer<typeof SquadListResponse>;

/** A browser test call of the squad, starting at any member (the first one when left out). */
export const SquadCallBody = z.object({ member: SquadMemberName.optional() });
export type SquadCallBody = z.infer<typeof SquadCallBody>;

/** One stretch of a call run by one assistant (the call log's segments). */
export const CallSegment = z.object({
  agent_id: z.string(),
  agent_name: z.string(),
  /** The squad member's name, when the call ran a squad. */
  member: z.string().nullable(),
  started_at_ms: z.number().int(),
  ended_at_ms: z.number().int().nullable(),
  /** Why the call came to this assistant (the hand-off tool's reason); null for the first. */
  reason: z.string().nullable(),
  /** The previous member, for a segment a hand-off started. */
  from_member: z.string().nullable(),
  cost: z.number(),
  /** Median voice-to-voice latency of the segment's turns, null without a heard turn. */
  latency_p50_ms: z.number().nullable(),
  turns: z.number().int(),
});
export type CallSegment = z.infer<typeof CallSegment>;
