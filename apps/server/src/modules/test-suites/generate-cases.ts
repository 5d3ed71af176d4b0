import {
  type Assistant,
  type Expectation,
  type GenerateTestCasesBody,
  SimulatedCaller,
  TEST_SUITE_TEXTS,
  type TestCaseFields,
  type WorkflowCondition,
  type WorkflowEdge,
  type WorkflowGraph,
  type WorkflowNode,
} from "@parley/contract";
import type { ChatMessage } from "@parley/engine";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { failureFields } from "../../lib/log-options.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { requireAgent, toAssistant } from "../assistants/service.ts";
import { analysisModel } from "../call-analysis/analysis-model.ts";
import { jsonInAnswer } from "../call-analysis/structured-data.ts";
import { loadPublishedWorkflow } from "../workflows/published.ts";

type NewCase = z.output<typeof TestCaseFields>;

const personaCaller = (persona: string) => SimulatedCaller.parse({ mode: "persona", persona: persona.slice(0, 4000) });
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

// ── from the workflow: a case per branch ───────────────────────────────────

const OPERATOR_WORDS: Record<string, string> = {
  eq: "is",
  neq: "is not",
  gt: "is more than",
  gte: "is at least",
  lt: "is less than",
  lte: "is at most",
  contains: "contains",
};

/** What the caller brings that makes the conversation take this edge. */
function wantOf(condition: WorkflowCondition, siblings: WorkflowEdge[]): string {
  switch (condition.kind) {
    case "model":
      return condition.description;
    case "variable":
      if (condition.operator === "is_set") return `You readily give your ${condition.variable} when asked.`;
      if (condition.operator === "is_not_set") return `You do not give your ${condition.variable}, even when asked.`;
      return `When asked, your ${condition.variable} ${OPERATOR_WORDS[condition.operator]} ${condition.value ?? ""}.`.trim();
    case "default": {
      const others = siblings.flatMap((e) =>
        e.condition.kind === "default" ? [] : [e.label ?? wantOf(e.condition, [])],
      );
      return others.length > 0 ? `None of these fits you: ${others.join("; ")}.` : "You have an ordinary request.";
    }
    case "always":
      return "You have an ordinary request.";
  }
}

/**
 * The variables collected from the target on, up to the next branch: what a conversation taking
 * this edge goes on to collect (required items only; the optional ones may rightly be skipped).
 */
function collectedOnPath(graph: WorkflowGraph, startId: string): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  let id: string | undefined = startId;
  while (id && !seen.has(id)) {
    seen.add(id);
    const node = graph.nodes.find((n) => n.id === id);
    if (node?.type === "conversation")
      names.push(...node.data.collect.filter((c) => c.required).map((c) => c.variable));
    const out = graph.edges.filter((e) => e.source === id);
    id = out.length === 1 ? out[0]?.target : undefined;
  }
  return [...new Set(names.filter((n) => n.trim() !== ""))];
}

const nodeName = (node: WorkflowNode | undefined) => node?.data.name.trim() || node?.id || "the next step";

function branchCase(graph: WorkflowGraph, assistantName: string, source: WorkflowNode, edge: WorkflowEdge): NewCase {
  const siblings = graph.edges.filter((e) => e.source === source.id);
  const target = graph.nodes.find((n) => n.id === edge.target);
  const step = nodeName(target);
  const want = wantOf(edge.condition, siblings);
  const collected = collectedOnPath(graph, edge.target);
  const persona = [
    `You are calling ${assistantName || "an assistant"} on the phone.`,
    edge.label ? `${edge.label}: ${want}` : want,
    collected.length > 0 ? `When asked for ${collected.join(", ")}, give plausible answers.` : "",
    "Answer in short, natural sentences and hang up once you are done.",
  ]
    .filter(Boolean)
    .join(" ");
  const expectations: Expectation[] = [
    { type: "rubric", rubric: `The conversation reached the step "${step}": ${clip(want, 1000)}` },
  ];
  if (collected.length > 0)
    expectations.push({
      type: "variables_collected",
      variables: collected.slice(0, 30).map((name) => ({ name, value: null })),
    });
  return {
    name: clip(`${nodeName(source)} → ${edge.label?.trim() || step}`, 120),
    caller: personaCaller(persona),
    expectations,
    variables: {},
  };
}

/** A case per branch of the graph: each edge out of a node with two or more edges out. */
export function casesFromWorkflow(graph: WorkflowGraph, assistantName: string): NewCase[] {
  return graph.nodes.flatMap((node) => {
    const out = graph.edges.filter((e) => e.source === node.id);
    return out.length >= 2 ? out.map((edge) => branchCase(graph, assistantName, node, edge)) : [];
  });
}

// ── from the prompt: the assistant's model proposes ────────────────────────

const ProposedCase = z.object({
  name: z.string().trim().min(1),
  persona: z.string().trim().min(1),
  rubric: z.string().trim().min(1),
});
const Proposal = z.union([z.object({ cases: z.array(z.unknown()) }), z.array(z.unknown())]);

function proposalMessages(assistant: Assistant, count: number): ChatMessage[] {
  const system =
    "You write test cases for a voice assistant. Each case is a caller a simulated person plays on a " +
    "phone call, and a rubric a judge reads the transcript against. Cover the assistant's main tasks " +
    "and at least one awkward caller. Answer JSON only, no prose: " +
    '{"cases": [{"name": "a short title", "persona": "who the caller is and what they want, in the ' +
    'second person", "rubric": "what the assistant must do for the case to pass"}]}';
  const user = [
    `Write ${count} test case${count === 1 ? "" : "s"} for this assistant.`,
    `Name: ${assistant.name}`,
    `First message: ${assistant.first_message || "(the caller speaks first)"}`,
    `Prompt:\n${assistant.system_prompt}`,
  ].join("\n");
  return [
    { role: "system", content: system },
    { role: "user", content: user },
  ];
}

/** The usable cases of the model's answer; why none are, when none are. */
function readProposal(answer: string, count: number): NewCase[] | string {
  const parsed = Proposal.safeParse(jsonInAnswer(answer));
  if (!parsed.success) return "the answer is not the JSON asked for";
  const items = Array.isArray(parsed.data) ? parsed.data : parsed.data.cases;
  const cases = items.flatMap((item) => {
    const c = ProposedCase.safeParse(item);
    if (!c.success) return [];
    const expectations: Expectation[] = [{ type: "rubric", rubric: clip(c.data.rubric, 4000) }];
    return [{ name: clip(c.data.name, 120), caller: personaCaller(c.data.persona), expectations, variables: {} }];
  });
  return cases.length > 0 ? cases.slice(0, count) : "no case in the answer has a name, persona and rubric";
}

async function casesFromPrompt(
  ctx: AppContext,
  log: FastifyBaseLogger,
  tenant: TenantScope,
  assistant: Assistant,
  count: number,
): Promise<NewCase[]> {
  const fields = { workspaceId: tenant.workspaceId, agentId: assistant.id };
  let answer: string;
  try {
    const model = await analysisModel(ctx, tenant.workspaceId, assistant);
    answer = await model.complete(proposalMessages(assistant, count));
  } catch (error) {
    log.warn({ ...fields, ...failureFields(error) }, "test case generation: the assistant's model failed");
    throw new AppError("bad_gateway", TEST_SUITE_TEXTS.generateFailed);
  }
  const cases = readProposal(answer, count);
  if (typeof cases === "string") {
    log.warn({ ...fields, reason: cases, answerLength: answer.length }, "test case generation: unusable answer");
    throw new AppError("bad_gateway", TEST_SUITE_TEXTS.generateFailed);
  }
  return cases;
}

/**
 * Starter cases for the suite's assistant (not yet saved): one per branch of its published
 * workflow (422 when it runs none), or `count` its own model proposes from its prompt (502 when
 * the model fails or answers nothing usable).
 */
export async function generateCases(
  ctx: AppContext,
  log: FastifyBaseLogger,
  tenant: TenantScope,
  agentId: string,
  body: z.output<typeof GenerateTestCasesBody>,
): Promise<NewCase[]> {
  const assistant = toAssistant(await requireAgent(ctx.db, tenant, agentId));
  if (body.source === "prompt") return casesFromPrompt(ctx, log, tenant, assistant, body.count);
  const published = await loadPublishedWorkflow(ctx.db, tenant, assistant);
  if (!published) throw new AppError("validation", TEST_SUITE_TEXTS.noWorkflow);
  const cases = casesFromWorkflow(published.graph, assistant.name);
  return cases.length > 0 ? cases : [mainPathCase(published.graph, assistant.name)];
}

/** A workflow without branches still gets a case: a caller taking it from start to end. */
function mainPathCase(graph: WorkflowGraph, assistantName: string): NewCase {
  const start = graph.nodes.find((n) => n.type === "start");
  const [edge] = graph.edges.filter((e) => e.source === start?.id);
  if (start && edge) return { ...branchCase(graph, assistantName, start, edge), name: "Main path" };
  return {
    name: "Main path",
    caller: personaCaller(`You are calling ${assistantName || "an assistant"} with an ordinary request.`),
    expectations: [{ type: "rubric", rubric: "The assistant handled the caller's request politely and to the end." }],
    variables: {},
  };
}
