import {
  type Assistant,
  ErrorResponse,
  type WorkflowTestAction,
  WorkflowTestTurnBody,
  WorkflowTestTurnResult,
} from "@parley/contract";
import {
  type ChatMessage,
  callSettingsOf,
  createProvider,
  type LlmProvider,
  ProviderError,
  WorkflowRunner,
  type WorkflowTurn,
} from "@parley/engine";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { errorResponses as errors } from "../../lib/error-responses.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { findAssistant } from "../assistants/service.ts";
import { missingKeyConflict, resolveCredentials } from "../integrations/credentials.ts";
import { getWorkflow, requireWorkflowRow } from "./service.ts";
import { workflowEffects } from "./workflow-effects.ts";

/** Longest a text-test turn may take (the model's judgements, tools, the reply) before it is abandoned. */
const TURN_LIMIT_MS = 120_000;

export const NO_TEST_ASSISTANT = "Attach the workflow to an assistant, or choose one, to test it with its model.";
export const TEST_STEP_GONE = "The workflow changed since this test began: restart the test.";
export const LAST_MESSAGE_NOT_CALLER = "The last message of a test turn must be the caller's.";

type TestTurnBody = z.output<typeof WorkflowTestTurnBody>;

/** The assistant whose model runs the test: the one asked for, else the workflow's first. */
async function testAssistant(
  ctx: AppContext,
  tenant: TenantScope,
  workflowId: string,
  asked?: string,
): Promise<Assistant> {
  const id = asked ?? (await getWorkflow(ctx.db, tenant, workflowId)).assistant_ids[0];
  if (!id) throw new AppError("validation", NO_TEST_ASSISTANT);
  const assistant = await findAssistant(ctx.db, tenant, id);
  if (!assistant) throw new AppError("not_found", "Assistant not found.");
  return assistant;
}

/** The assistant's language model with the workspace's credentials (the same one its calls use). */
async function assistantModel(ctx: AppContext, tenant: TenantScope, assistant: Assistant): Promise<LlmProvider> {
  try {
    const { llm } = callSettingsOf(assistant).providers;
    const credentials = await resolveCredentials(ctx, tenant.workspaceId, llm.provider, { url: llm.config.base_url });
    return createProvider("llm", llm.provider, { credentials, config: llm.config, net: ctx.network });
  } catch (error) {
    throw missingKeyConflict(error) ?? asModelFailure(error);
  }
}

/** A vendor's failure (bad config, outage) as a 502 naming it; anything else as it is. */
function asModelFailure(error: unknown): unknown {
  return error instanceof ProviderError
    ? new AppError("bad_gateway", `The assistant's model failed: ${error.message}`)
    : error;
}

/** The step's reply to the conversation, on the assistant's model (no tools: the text test speaks only). */
async function reply(
  llm: LlmProvider,
  assistant: Assistant,
  system: string,
  history: ChatMessage[],
  signal: AbortSignal,
) {
  let text = "";
  const stream = llm.chat({
    messages: [{ role: "system", content: system }, ...history],
    temperature: assistant.llm_temperature,
    maxTokens: assistant.llm_max_tokens,
    signal,
  });
  for await (const chunk of stream) if (chunk.type === "text") text += chunk.text;
  return text.trim();
}

function actionOf(turn: WorkflowTurn): WorkflowTestAction | undefined {
  // A hand-off node passes the call to another squad member (issue 31): the test turn says to whom.
  if (turn.handoff) return { type: "handoff", member: turn.handoff.member, message: turn.handoff.message };
  const finish = turn.finish;
  if (!finish) return undefined;
  return finish.type === "end"
    ? { type: "end", message: finish.message }
    : { type: "transfer", destination: finish.destination, message: finish.message };
}

/**
 * One turn of the workflow's DRAFT against the assistant's model, with no audio and nothing kept
 * on the server: the client sends the conversation and the state the previous turn returned.
 * The first turn (no state, no caller message) answers with the start node's greeting. A turn's
 * milliseconds count from the previous step's, plus the time this turn took.
 */
export async function runTestTurn(
  ctx: AppContext,
  tenant: TenantScope,
  workflowId: string,
  body: TestTurnBody,
): Promise<WorkflowTestTurnResult> {
  const row = await requireWorkflowRow(ctx.db, tenant, workflowId);
  const assistant = await testAssistant(ctx, tenant, workflowId, body.assistant_id);
  const state = body.state ?? undefined;
  if (state && !row.graph.nodes.some((n) => n.id === state.node_id)) throw new AppError("conflict", TEST_STEP_GONE);
  const last = body.messages.at(-1);
  if (state && last?.role !== "user") throw new AppError("validation", LAST_MESSAGE_NOT_CALLER);

  const llm = await assistantModel(ctx, tenant, assistant);
  const effects = workflowEffects(ctx, tenant, assistant.id);
  const definition = {
    workflowId: row.id,
    version: row.publishedVersion ?? 0,
    globalPrompt: row.globalPrompt,
    variables: row.variables,
    graph: row.graph,
  };
  const runner = new WorkflowRunner(definition, { llm, effects, state });
  const started = Date.now();
  const base = state?.path.at(-1)?.entered_at_ms ?? 0;
  const atMs = () => base + (Date.now() - started);
  const signal = AbortSignal.timeout(TURN_LIMIT_MS);
  try {
    const greeting = state ? null : runner.begin(0);
    if (!state && last?.role !== "user") {
      return { reply: greeting ?? "", state: runner.state, transitions: [], ended: false };
    }
    const history: ChatMessage[] = body.messages.map((m) => ({ role: m.role, content: m.content }));
    const turn = await runner.advance(history, { atMs, signal });
    const action = actionOf(turn);
    const text = action
      ? action.message
      : await reply(llm, assistant, runner.systemPrompt(assistant.system_prompt), history, signal);
    return {
      reply: text,
      state: runner.state,
      transitions: turn.transitions,
      ended: action !== undefined,
      ...(action ? { action } : {}),
    };
  } catch (error) {
    throw asModelFailure(error);
  } finally {
    await effects.close();
  }
}

const IdParams = z.object({ id: z.uuid() });

/** POST /workflows/{id}/test-turn: the builder's text test panel. */
export async function workflowTestTurnRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    "/workflows/:id/test-turn",
    {
      ...tenantRoute(app),
      schema: {
        tags: ["workflows"],
        summary: "Run one turn of the draft against an assistant's model, without audio (the client carries the state)",
        params: IdParams,
        body: WorkflowTestTurnBody,
        response: { 200: WorkflowTestTurnResult, ...errors, 502: ErrorResponse },
      },
    },
    async (request) => runTestTurn(app.ctx, tenantOf(request), request.params.id, request.body),
  );
}
