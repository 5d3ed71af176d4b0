import type { Assistant, VersionLinks } from "@parley/contract";
import {
  type AssistantParts,
  type CallSettings,
  callSettingsOf,
  FallbackLlm,
  type Handoffs,
  type ToolRunner,
} from "@parley/engine";
import type { FastifyBaseLogger } from "fastify";
import type { Room } from "../../lib/call-runtime.ts";
import type { UsageMeter } from "../billing/usage-meter.ts";
import { type CallWorkflow, callWorkflow } from "../workflows/call-workflow.ts";
import type { CallDeps } from "./call-deps.ts";
import { withCallPrivacy } from "./call-privacy.ts";
import { withVariables } from "./call-variables.ts";
import { mcpTools } from "./mcp-tools.ts";
import { withinPlanMinutes } from "./minutes-allowance.ts";
import { buildCallProviderChains } from "./providers.ts";
import { createToolRunner, functionTools } from "./tool-runner.ts";
import { versionTools } from "./version-tools.ts";

/** One assistant made ready to run a call, or the rest of it after a hand-off. */
export interface BuiltAssistant {
  /** What the engine session runs (its recogniser always built; a hand-off passes it on only when it differs). */
  parts: AssistantParts & Required<Pick<AssistantParts, "stt">>;
  workflow: CallWorkflow | null;
  /** Tool servers that could not be reached: the call goes on without them, the log says so. */
  toolFailures: string[];
  /** Closes what the assistant opened for the call (tool server sessions). */
  close(): Promise<void>;
}

export interface BuildAssistantOptions {
  assistant: Assistant;
  /** What the assistant's version was published with (issue 30); `{}` runs the live links. */
  links: VersionLinks;
  /** The call's meter for this assistant's stretch: what its model and voice used. */
  usage: UsageMeter;
  /** Said to the model with the assistant's prompt (the caller's number, the channel, …). */
  context: string;
  handoffs?: Handoffs;
}

/**
 * The one place a call's assistant is assembled: settings with the call's variables and the plan's
 * minutes, the provider chains, its functions, tool servers and knowledge, and its workflow. The
 * call's start and every hand-off build through it, so a different kind of session (speech to
 * speech) has one place to choose what it runs.
 */
export async function buildAssistant(
  rt: CallDeps,
  room: Room,
  options: BuildAssistantOptions,
  log: FastifyBaseLogger,
): Promise<BuiltAssistant> {
  const { ctx } = rt;
  const { assistant, links } = options;
  const settings = await callSettingsFor(rt, room, assistant);
  const providers = options.usage.wrapChains(await buildCallProviderChains(ctx, room.workspaceId, settings, log));
  // The workflow's own model requests (routing, node work) fall back along the same chain.
  const workflowModel =
    providers.fallbacks.llm.length > 0 ? new FallbackLlm([providers.llm, ...providers.fallbacks.llm]) : providers.llm;
  const workflow = await callWorkflow(ctx, room, assistant, workflowModel, room.variables, links.workflow_version);
  const tools = await assistantTools(rt, room, assistant, links, log);
  return {
    parts: {
      settings,
      ...providers,
      tools: tools.runner,
      context: options.context,
      workflow: workflow?.runner,
      handoffs: options.handoffs,
    },
    workflow,
    toolFailures: tools.failures,
    close: tools.close,
  };
}

/** The assistant's call settings with the call's variables, the plan's minutes left and the workspace's privacy. */
export async function callSettingsFor(rt: CallDeps, room: Room, assistant: Assistant): Promise<CallSettings> {
  const settings = await withinPlanMinutes(rt.ctx, room, withVariables(callSettingsOf(assistant), room.variables));
  return withCallPrivacy(settings, await rt.privacySettings(room));
}

/**
 * The assistant's tools for a call, as its version pinned them: its functions, knowledge search
 * (when documents are linked) and its tool servers' tools, whichever session runs the call.
 */
export async function assistantTools(
  rt: CallDeps,
  room: Room,
  assistant: Assistant,
  links: VersionLinks,
  log: FastifyBaseLogger,
): Promise<{ runner: ToolRunner; failures: string[]; close(): Promise<void> }> {
  const { ctx } = rt;
  const pinned = await versionTools(ctx.db, room, links);
  // A record deleted since the version was published is left out; the call runs with the rest.
  if (Object.keys(pinned.skipped).length > 0)
    log.warn(
      { callId: room.callId, agentId: assistant.id, skipped: pinned.skipped },
      "the call's assistant version links records deleted since; they are left out",
    );
  const [functions, mcp] = await Promise.all([
    functionTools(ctx, room, assistant.id, pinned.tools),
    mcpTools(ctx, room, assistant.id, pinned.tools.mcpServers),
  ]);
  return { runner: createToolRunner([...functions, ...mcp.tools]), failures: mcp.failures, close: mcp.close };
}
