import type { Assistant, SquadContext, SquadMember } from "@parley/contract";
import type { AssistantSwitch, ChatMessage, HandoffAnswer, Handoffs, LlmProvider } from "@parley/engine";
import type { Room } from "../../lib/call-runtime.ts";
import { findAssistant } from "../assistants/service.ts";
import { UsageMeter } from "../billing/usage-meter.ts";
import type { SquadRow } from "../squads/service.ts";
import type { BuiltAssistant } from "./assistant-parts.ts";
import type { CallDeps } from "./call-deps.ts";
import { carriedContext, dialogueOf } from "./handoff-context.ts";

/** The longest a hand-off's summary may take; past it the next assistant gets the caller's last words only. */
const SUMMARY_TIMEOUT_MS = 8_000;

export const SUMMARY_PROMPT =
  "You summarise a phone call for a colleague who takes it over. In at most five sentences: who the caller is, what they want, what was already said or done, and what is still open. Answer with the summary only.";

/** What the squad's call asks of the call it runs in. */
export interface SquadCallHooks {
  /** Builds a member's assistant for the call, with its own meter and hand-offs. */
  build(options: {
    assistant: Assistant;
    usage: UsageMeter;
    context: string;
    handoffs: Handoffs | undefined;
  }): Promise<BuiltAssistant>;
  /** The model of the assistant handing off (its summary is billed to its stretch). */
  currentModel(): LlmProvider;
  /** The running assistant's settings: a transcriber the same as the next one's is kept. */
  currentAssistant(): Assistant;
  /** The call's values (the room's and its workflow's), for "variables" carry-over. */
  variables(): Record<string, string>;
  /** The context every assistant of the call is given (the caller, the channel). */
  baseContext: string;
}

/** A prepared hand-off the engine has not yet switched to. */
export interface PreparedHandoff {
  member: SquadMember;
  from: string;
  reason: string;
  assistant: Assistant;
  usage: UsageMeter;
  built: BuiltAssistant;
}

async function summarise(llm: LlmProvider, dialogue: ChatMessage[]): Promise<string> {
  const transcript = dialogue.map((m) => `${m.role === "user" ? "Caller" : "Assistant"}: ${m.content}`).join("\n");
  let text = "";
  for await (const chunk of llm.chat({
    messages: [
      { role: "system", content: SUMMARY_PROMPT },
      { role: "user", content: transcript || "(nothing was said yet)" },
    ],
    temperature: 0,
    maxTokens: 300,
    signal: AbortSignal.timeout(SUMMARY_TIMEOUT_MS),
  })) {
    if (chunk.type === "text") text += chunk.text;
  }
  return text.trim();
}

const sameTranscriber = (a: Assistant, b: Assistant) =>
  a.stt_provider === b.stt_provider && JSON.stringify(a.stt_provider_config) === JSON.stringify(b.stt_provider_config);

/**
 * One call's squad (issue 31): which member runs it, the `handoff_to_<name>` tools each member is
 * given (only its allowed targets), the hand-off limit, and the context carried to the next member.
 */
export class SquadCall {
  private handoffs = 0;
  private pending: PreparedHandoff | null = null;
  private member: SquadMember;

  constructor(
    private readonly rt: CallDeps,
    private readonly room: Room,
    private readonly squad: SquadRow,
    start: SquadMember,
    private readonly hooks: SquadCallHooks,
  ) {
    this.member = start;
  }

  get current(): SquadMember {
    return this.member;
  }

  /** The hand-off tools of a member; none when the squad lets it hand to nobody. */
  handoffsOf(member: SquadMember): Handoffs | undefined {
    const edges = this.squad.handoffs.filter((h) => h.from === member.name);
    if (edges.length === 0) return undefined;
    return {
      targets: edges.map((edge) => ({ name: edge.to, description: edge.description })),
      request: (target, reason, history) => this.request(member, target, reason, history),
    };
  }

  /** The engine switched to the prepared member: it runs the call from now on. */
  tookOver(): PreparedHandoff | null {
    const taken = this.pending;
    this.pending = null;
    if (taken) this.member = taken.member;
    return taken;
  }

  private request(from: SquadMember, target: string, reason: string, history: readonly ChatMessage[]): HandoffAnswer {
    const edge = this.squad.handoffs.find((h) => h.from === from.name && h.to === target);
    const to = this.squad.members.find((m) => m.name === target);
    if (!edge || !to) return { refused: `There is no hand-off to "${target}" from this assistant.` };
    if (this.pending) return { refused: "A hand-off is already under way." };
    if (this.handoffs >= this.squad.maxHandoffs)
      return {
        refused: `This call has already been handed over ${this.handoffs} times, the most its squad allows. Help the caller yourself.`,
      };
    this.handoffs += 1;
    // A hand-off's own bridge line wins; "" on the hand-off says nothing even when the squad has one.
    const bridge = edge.bridge_line ?? this.squad.bridgeLine;
    const next = this.prepare(from, to, reason, dialogueOf(history), edge.context ?? this.squad.context);
    next.catch((error: unknown) => {
      this.handoffs -= 1;
      this.rt.log.warn(
        {
          callId: this.room.callId,
          workspaceId: this.room.workspaceId,
          squadId: this.squad.id,
          to: to.name,
          err: error,
        },
        "a squad's hand-off could not be prepared; the current assistant keeps the call",
      );
    });
    return { bridgeLine: bridge || null, next };
  }

  private async prepare(
    from: SquadMember,
    to: SquadMember,
    reason: string,
    dialogue: ChatMessage[],
    carry: SquadContext,
  ): Promise<AssistantSwitch> {
    const assistant = await findAssistant(this.rt.ctx.db, this.room, to.assistant_id);
    if (!assistant) throw new Error(`${to.name}'s assistant no longer exists`);
    const { note, history } = await this.carryOver(carry, dialogue);
    const context = [
      this.hooks.baseContext,
      `You are taking over this call from ${from.name}${reason ? `, who handed it to you because: ${reason}` : ""}. Do not greet the caller again; continue the conversation.`,
      note,
    ]
      .filter(Boolean)
      .join("\n\n");
    const usage = new UsageMeter();
    const built = await this.hooks.build({ assistant, usage, context, handoffs: this.handoffsOf(to) });
    this.pending = { member: to, from: from.name, reason, assistant, usage, built };
    const { stt, ...parts } = built.parts;
    const keepRecogniser = sameTranscriber(this.hooks.currentAssistant(), assistant);
    return {
      from: from.name,
      to: to.name,
      reason,
      next: keepRecogniser ? parts : { ...parts, stt },
      history,
    };
  }

  /** What the next member is told of the call so far, by the hand-off's carry-over mode. */
  private carryOver(carry: SquadContext, dialogue: ChatMessage[]) {
    return carriedContext(carry, dialogue, {
      summarise: () =>
        summarise(this.hooks.currentModel(), dialogue).catch((error: unknown) => {
          this.rt.log.warn({ callId: this.room.callId, err: error }, "a hand-off's summary failed; none is carried");
          throw error;
        }),
      values: () => this.hooks.variables(),
    });
  }
}
