import { z } from "zod";
import { paged } from "./common.ts";
import { pageQuery } from "./page-query.ts";
import { timestamps } from "./resource-fields.ts";

/**
 * Workflows (issue 15): a conversation flow an assistant runs during its calls. A workflow is a
 * graph of nodes (start, conversation steps, conditions, tool calls, knowledge lookups, transfers,
 * ends) joined by edges with conditions, plus a global prompt and typed variables. The graph kept
 * on the workflow is the DRAFT the builder edits; publishing validates it and snapshots it as a
 * numbered version, and calls only ever run the latest published version.
 *
 * Drafts are saved as they are on the canvas: the schemas below only check the shape (an empty
 * prompt, a tool not chosen yet or an undeclared variable saves fine); whether the graph can run
 * is `validateWorkflow`'s job (workflow-validation.ts), shown on the canvas and enforced on publish.
 */

export const WORKFLOW_LIMITS = {
  nodes: 200,
  edges: 600,
  variables: 100,
  name: 120,
  description: 1000,
  prompt: 20_000,
  message: 1000,
  id: 64,
} as const;

/** Variable names are identifiers, so `{{name}}` in a template reads unambiguously. */
export const WORKFLOW_VARIABLE_NAME = /^[a-z_][a-z0-9_]*$/i;
export const WorkflowVariableName = z
  .string()
  .trim()
  .min(1, "Name is required")
  .max(64)
  .regex(WORKFLOW_VARIABLE_NAME, "Use letters, digits and underscores, not starting with a digit");

export const WORKFLOW_VARIABLE_TYPES = ["string", "number", "boolean", "date", "enum"] as const;
export const WorkflowVariableType = z.enum(WORKFLOW_VARIABLE_TYPES);
export type WorkflowVariableType = z.infer<typeof WorkflowVariableType>;

export const WorkflowVariable = z.object({
  name: WorkflowVariableName,
  type: WorkflowVariableType,
  /** Tells the model what to extract into it (a date is written YYYY-MM-DD). */
  description: z.string().max(WORKFLOW_LIMITS.message).default(""),
  /** The allowed values of an "enum" variable; ignored for other types. */
  enum_values: z.array(z.string().trim().min(1).max(120)).max(50).optional(),
});
export type WorkflowVariable = z.infer<typeof WorkflowVariable>;

/** A variable's value during a call: dates and enum values are strings; null until collected. */
export const WorkflowValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type WorkflowValue = z.infer<typeof WorkflowValue>;
export const WorkflowValues = z.record(z.string(), WorkflowValue);
export type WorkflowValues = z.infer<typeof WorkflowValues>;

const ElementId = z.string().min(1).max(WORKFLOW_LIMITS.id);
/** A reference to a variable by name; may name an undeclared one in a draft (the validator says so). */
const VariableRef = z.string().max(64);
const NodeName = z.string().max(WORKFLOW_LIMITS.name);
const Prompt = z.string().max(WORKFLOW_LIMITS.prompt);
const Message = z.string().max(WORKFLOW_LIMITS.message);

export const WorkflowPosition = z.object({ x: z.number().finite(), y: z.number().finite() });
export type WorkflowPosition = z.infer<typeof WorkflowPosition>;

export const WorkflowCollectItem = z.object({
  variable: VariableRef,
  description: z.string().max(WORKFLOW_LIMITS.message).default(""),
  required: z.boolean().default(true),
});
export type WorkflowCollectItem = z.infer<typeof WorkflowCollectItem>;

/** A tool node calls a function (webhook tool) or one tool of an MCP server of the workspace. */
export const WorkflowToolRef = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("function"), function_id: z.string().max(64) }),
  z.object({ kind: z.literal("mcp"), mcp_server_id: z.string().max(64), tool_name: z.string().max(200) }),
]);
export type WorkflowToolRef = z.infer<typeof WorkflowToolRef>;

export const StartNodeData = z.object({
  name: NodeName,
  /** The assistant's first message (may use {{variables}}); empty: the caller speaks first. */
  greeting: Message,
  prompt: Prompt,
});
export const ConversationNodeData = z.object({
  name: NodeName,
  prompt: Prompt,
  /** Extracted from the conversation by the model after each turn while this node is active. */
  collect: z.array(WorkflowCollectItem).max(50).default([]),
});
export const ConditionNodeData = z.object({ name: NodeName });
export const ToolNodeData = z.object({
  name: NodeName,
  tool: WorkflowToolRef,
  /** Argument name → template ({{variables}} filled in when the tool is called). */
  arguments: z.record(z.string().max(200), z.string().max(WORKFLOW_LIMITS.prompt)).default({}),
  /** Where the tool's result goes (as text); null: the result is only shown to the model. */
  result_variable: VariableRef.nullable().default(null),
});
export const KnowledgeNodeData = z.object({
  name: NodeName,
  /** The search query; a template over the variables. */
  query: Prompt,
  result_variable: VariableRef,
});
export const TransferNodeData = z.object({
  name: NodeName,
  /** An E.164 number or a SIP extension. */
  destination: z.string().max(200),
  /** Said to the caller before the transfer. */
  message: Message,
});
/**
 * Hands the call to another member of the call's squad (issue 31), as its `handoff_to_<member>`
 * tool would: the squad must allow the hand-off from the member running the workflow.
 */
export const HandoffNodeData = z.object({
  name: NodeName,
  /** The squad member's name (its tool's suffix). */
  member: z.string().max(40),
  /** Said before the hand-off (may use {{variables}}); empty: the squad's bridge line. */
  message: Message,
});
export const EndNodeData = z.object({
  name: NodeName,
  /** Said before hanging up (may use {{variables}}). */
  message: Message,
});

const node = <T extends string, D extends z.ZodType>(type: T, data: D) =>
  z.object({ id: ElementId, type: z.literal(type), position: WorkflowPosition, data });

export const WorkflowNode = z.discriminatedUnion("type", [
  node("start", StartNodeData),
  node("conversation", ConversationNodeData),
  node("condition", ConditionNodeData),
  node("tool", ToolNodeData),
  node("knowledge", KnowledgeNodeData),
  node("transfer", TransferNodeData),
  node("handoff", HandoffNodeData),
  node("end", EndNodeData),
]);
export type WorkflowNode = z.infer<typeof WorkflowNode>;
export type WorkflowNodeType = WorkflowNode["type"];
export const WORKFLOW_NODE_TYPES = [
  "start",
  "conversation",
  "condition",
  "tool",
  "knowledge",
  "transfer",
  "handoff",
  "end",
] as const satisfies readonly WorkflowNodeType[];
/** The node of one type, e.g. WorkflowNodeOf<"tool">. */
export type WorkflowNodeOf<T extends WorkflowNodeType> = Extract<WorkflowNode, { type: T }>;

export const WORKFLOW_OPERATORS = ["eq", "neq", "gt", "gte", "lt", "lte", "contains", "is_set", "is_not_set"] as const;
export const WorkflowOperator = z.enum(WORKFLOW_OPERATORS);
export type WorkflowOperator = z.infer<typeof WorkflowOperator>;
/** Operators that compare with no value. */
export const WORKFLOW_UNARY_OPERATORS: readonly WorkflowOperator[] = ["is_set", "is_not_set"];

export const WorkflowCondition = z.discriminatedUnion("kind", [
  /** Taken as soon as the node is done (the only edge out of a step). */
  z.object({ kind: z.literal("always") }),
  /** Taken when no other edge of the node matches. */
  z.object({ kind: z.literal("default") }),
  z.object({
    kind: z.literal("variable"),
    variable: VariableRef,
    operator: WorkflowOperator,
    value: z.string().max(WORKFLOW_LIMITS.message).optional(),
  }),
  /** The model judges it from the conversation, e.g. "the caller wants to reschedule". */
  z.object({ kind: z.literal("model"), description: z.string().max(WORKFLOW_LIMITS.message) }),
]);
export type WorkflowCondition = z.infer<typeof WorkflowCondition>;
export type WorkflowConditionKind = WorkflowCondition["kind"];

export const WorkflowEdge = z.object({
  id: ElementId,
  source: ElementId,
  target: ElementId,
  label: z.string().max(WORKFLOW_LIMITS.name).optional(),
  condition: WorkflowCondition,
});
export type WorkflowEdge = z.infer<typeof WorkflowEdge>;

export const WorkflowGraph = z.object({
  nodes: z.array(WorkflowNode).max(WORKFLOW_LIMITS.nodes),
  edges: z.array(WorkflowEdge).max(WORKFLOW_LIMITS.edges),
});
export type WorkflowGraph = z.infer<typeof WorkflowGraph>;

export const WorkflowVariables = z.array(WorkflowVariable).max(WORKFLOW_LIMITS.variables);

/** Where a new workflow starts: a start node leading to an end node. */
export function starterWorkflowGraph(): WorkflowGraph {
  return {
    nodes: [
      {
        id: "start",
        type: "start",
        position: { x: 0, y: 0 },
        data: { name: "Start", greeting: "Hello! How can I help you today?", prompt: "" },
      },
      {
        id: "end",
        type: "end",
        position: { x: 0, y: 200 },
        data: { name: "End", message: "Thank you for calling. Goodbye!" },
      },
    ],
    edges: [
      {
        id: "start-end",
        source: "start",
        target: "end",
        condition: { kind: "model", description: "The caller's request is handled" },
      },
    ],
  };
}

export const WORKFLOW_ISSUE_CODES = [
  "no_start",
  "several_starts",
  "duplicate_id",
  "dangling_edge",
  "unreachable",
  "dead_end",
  "edge_from_terminal",
  "ambiguous_edges",
  "several_defaults",
  "missing_default",
  "missing_condition",
  "invalid_condition",
  "missing_variable",
  "duplicate_variable",
  "enum_without_values",
  "missing_field",
  "invalid_field",
  /** The server's check only: a tool node names a function or MCP server the workspace lacks. */
  "unknown_tool",
] as const;
export const WorkflowIssueCode = z.enum(WORKFLOW_ISSUE_CODES);
export type WorkflowIssueCode = z.infer<typeof WorkflowIssueCode>;

/** One reason the graph cannot run, placed on its node or edge for the canvas to mark. */
export const WorkflowIssue = z.object({
  code: WorkflowIssueCode,
  node_id: z.string().optional(),
  edge_id: z.string().optional(),
  /** The variable concerned (missing_variable, duplicate_variable, enum_without_values). */
  variable: z.string().optional(),
  /** The node field concerned (missing_field), e.g. "tool", "destination". */
  field: z.string().optional(),
  message: z.string(),
});
export type WorkflowIssue = z.infer<typeof WorkflowIssue>;

export const Workflow = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  global_prompt: z.string(),
  variables: z.array(WorkflowVariable),
  /** The draft, as last saved from the builder. */
  graph: WorkflowGraph,
  /** The latest published version's number; null until first published. */
  published_version: z.number().int().nullable(),
  /** The draft differs from the latest published version (or nothing is published yet). */
  has_unpublished_changes: z.boolean(),
  /** The assistants attached to it (their `workflow_id`). */
  assistant_ids: z.array(z.string()),
  ...timestamps,
});
export type Workflow = z.infer<typeof Workflow>;

/** A list row: the workflow without its graph, with counts for the table. */
export const WorkflowSummary = Workflow.omit({ graph: true, variables: true, global_prompt: true }).extend({
  node_count: z.number().int(),
});
export type WorkflowSummary = z.infer<typeof WorkflowSummary>;

export const WORKFLOW_SORT_FIELDS = ["name", "created_at", "updated_at"] as const;
/** GET /workflows: a page of the workspace's workflows (the batch-calls list's paging and sorting). */
export const WorkflowListQuery = z.object({
  ...pageQuery(100, 20),
  search: z.string().trim().max(120).optional(),
  sort_by: z.enum(WORKFLOW_SORT_FIELDS).default("updated_at"),
  sort_order: z.enum(["asc", "desc"]).default("desc"),
});
export type WorkflowListQuery = z.input<typeof WorkflowListQuery>;

export const WorkflowPage = paged(WorkflowSummary);
export type WorkflowPage = z.infer<typeof WorkflowPage>;

export const WorkflowName = z.string().trim().min(1, "Name is required").max(WORKFLOW_LIMITS.name);

/**
 * POST /workflows. With `assistant_id` the workflow is that assistant's own: it is created and
 * attached to the assistant in one step (the /assistants/{id}/workflow page).
 */
export const CreateWorkflowBody = z.object({
  name: WorkflowName,
  description: z.string().trim().max(WORKFLOW_LIMITS.description).default(""),
  assistant_id: z.uuid().optional(),
});
export type CreateWorkflowBody = z.input<typeof CreateWorkflowBody>;

/** PATCH /workflows/{id}: saves the draft; any subset of the fields. */
export const UpdateWorkflowBody = z.object({
  name: WorkflowName.optional(),
  description: z.string().trim().max(WORKFLOW_LIMITS.description).optional(),
  global_prompt: z.string().max(WORKFLOW_LIMITS.prompt).optional(),
  variables: WorkflowVariables.optional(),
  graph: WorkflowGraph.optional(),
});
export type UpdateWorkflowBody = z.input<typeof UpdateWorkflowBody>;

/** POST /workflows/validate: checks a graph without saving it (the canvas as it is being edited). */
export const ValidateWorkflowBody = z.object({
  graph: WorkflowGraph,
  variables: WorkflowVariables.default([]),
  global_prompt: z.string().max(WORKFLOW_LIMITS.prompt).default(""),
});
export type ValidateWorkflowBody = z.input<typeof ValidateWorkflowBody>;
export const WorkflowValidationResult = z.object({ issues: z.array(WorkflowIssue) });
export type WorkflowValidationResult = z.infer<typeof WorkflowValidationResult>;

/** The 422 body of a publish refused for an invalid graph: the error's sentence plus the issues. */
export const WorkflowPublishError = z.object({ detail: z.string(), issues: z.array(WorkflowIssue) });
export type WorkflowPublishError = z.infer<typeof WorkflowPublishError>;

/** A published snapshot: what calls run. Versions count up from 1 per workflow. */
export const WorkflowVersion = z.object({
  version: z.number().int(),
  graph: WorkflowGraph,
  global_prompt: z.string(),
  variables: z.array(WorkflowVariable),
  published_at: z.string(),
});
export type WorkflowVersion = z.infer<typeof WorkflowVersion>;
export const WorkflowVersionList = z.array(WorkflowVersion);

/* ---- The text test (POST /workflows/{id}/test-turn; the engine's route) and call-log path ---- */

export const WorkflowPathStep = z.object({
  node_id: z.string(),
  node_name: z.string(),
  node_type: z.enum(WORKFLOW_NODE_TYPES),
  /** Milliseconds from the start of the call (or test) when the node became active. */
  entered_at_ms: z.number().int(),
  /** Why the node was entered: "start", the edge's label or condition, the model's judgement. */
  reason: z.string(),
});
export type WorkflowPathStep = z.infer<typeof WorkflowPathStep>;

/** What a call log records of the workflow that ran (null when the call ran none). */
export const CallWorkflowRecord = z.object({
  workflow_id: z.string(),
  version: z.number().int(),
  path: z.array(WorkflowPathStep),
  variables: WorkflowValues,
});
export type CallWorkflowRecord = z.infer<typeof CallWorkflowRecord>;

export const WorkflowTestState = z.object({
  node_id: z.string(),
  variables: WorkflowValues,
  path: z.array(WorkflowPathStep),
});
export type WorkflowTestState = z.infer<typeof WorkflowTestState>;

export const WorkflowTestMessage = z.object({
  role: z.enum(["user", "assistant"]),
  content: z.string().max(WORKFLOW_LIMITS.prompt),
});
export type WorkflowTestMessage = z.infer<typeof WorkflowTestMessage>;

export const WorkflowTestTurnBody = z.object({
  /** The assistant whose model runs the test; absent: the first assistant attached to the workflow. */
  assistant_id: z.uuid().optional(),
  messages: z.array(WorkflowTestMessage).max(200),
  /** The state the previous turn returned; null on the first turn. */
  state: WorkflowTestState.nullable(),
});
export type WorkflowTestTurnBody = z.input<typeof WorkflowTestTurnBody>;

export const WorkflowTransition = z.object({ from: z.string(), to: z.string(), reason: z.string() });
export type WorkflowTransition = z.infer<typeof WorkflowTransition>;

export const WorkflowTestAction = z.discriminatedUnion("type", [
  z.object({ type: z.literal("transfer"), destination: z.string(), message: z.string() }),
  z.object({ type: z.literal("end"), message: z.string() }),
  /** A hand-off node reached (issue 31): in a call, the squad member named takes over. */
  z.object({ type: z.literal("handoff"), member: z.string(), message: z.string() }),
]);
export type WorkflowTestAction = z.infer<typeof WorkflowTestAction>;

export const WorkflowTestTurnResult = z.object({
  reply: z.string(),
  state: WorkflowTestState,
  transitions: z.array(WorkflowTransition),
  ended: z.boolean(),
  action: WorkflowTestAction.optional(),
});
export type WorkflowTestTurnResult = z.infer<typeof WorkflowTestTurnResult>;
