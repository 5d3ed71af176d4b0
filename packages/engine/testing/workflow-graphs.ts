import type { WorkflowCondition, WorkflowEdge, WorkflowGraph, WorkflowNode, WorkflowVariable } from "@parley/contract";
import type { ChatRequest } from "../src/providers/types.ts";
import type { WorkflowDefinition } from "../src/workflow/types.ts";

type NodeData<T extends WorkflowNode["type"]> = Extract<WorkflowNode, { type: T }>["data"];

/** A node at the origin (positions do not matter to the engine). */
export function wfNode<T extends WorkflowNode["type"]>(id: string, type: T, data: NodeData<T>): WorkflowNode {
  return { id, type, position: { x: 0, y: 0 }, data } as WorkflowNode;
}

/** An edge; `always` unless a condition is given. */
export function wfEdge(
  source: string,
  target: string,
  condition: WorkflowCondition = { kind: "always" },
  label?: string,
): WorkflowEdge {
  return { id: `${source}->${target}`, source, target, condition, ...(label ? { label } : {}) };
}

export function wfDefinition(
  graph: WorkflowGraph,
  variables: WorkflowVariable[] = [],
  globalPrompt = "You are the front desk of Parley Dental.",
): WorkflowDefinition {
  return { workflowId: "wf-1", version: 1, globalPrompt, variables, graph };
}

/** An order desk's first two steps: `start` asks for the order number, `ask` collects `order_id`. */
export function orderNumberSteps(): WorkflowNode[] {
  return [
    wfNode("start", "start", { name: "Start", greeting: "Your order number?", prompt: "" }),
    wfNode("ask", "conversation", {
      name: "Order number",
      prompt: "Get the order number.",
      collect: [{ variable: "order_id", description: "", required: true }],
    }),
  ];
}

/**
 * The three-branch desk: the start greets and hands over to triage, which collects `topic`
 * (billing, booking or other) and the caller's name; a router sends billing and booking callers
 * to their own steps and everyone else to a transfer. Billing ends the call when the caller is done.
 */
export function threeBranchDesk(): WorkflowDefinition {
  const variables: WorkflowVariable[] = [
    { name: "caller_name", type: "string", description: "The caller's first name" },
    {
      name: "topic",
      type: "enum",
      description: "What the call is about",
      enum_values: ["billing", "booking", "other"],
    },
  ];
  const graph: WorkflowGraph = {
    nodes: [
      wfNode("start", "start", { name: "Start", greeting: "Thanks for calling Parley Dental.", prompt: "" }),
      wfNode("triage", "conversation", {
        name: "Triage",
        prompt: "Ask what the call is about and the caller's first name.",
        collect: [
          { variable: "topic", description: "billing, booking or other", required: true },
          { variable: "caller_name", description: "", required: false },
        ],
      }),
      wfNode("route", "condition", { name: "Route by topic" }),
      wfNode("billing", "conversation", {
        name: "Billing",
        prompt: "Help {{caller_name}} with their bill.",
        collect: [],
      }),
      wfNode("booking", "conversation", { name: "Booking", prompt: "Book a visit for {{caller_name}}.", collect: [] }),
      wfNode("human", "transfer", {
        name: "Front desk",
        destination: "+15550001111",
        message: "Let me put you through, {{caller_name}}.",
      }),
      wfNode("bye", "end", { name: "Goodbye", message: "Goodbye, {{caller_name}}!" }),
    ],
    edges: [
      wfEdge("start", "triage"),
      wfEdge("triage", "route"),
      wfEdge("route", "billing", { kind: "variable", variable: "topic", operator: "eq", value: "billing" }),
      wfEdge("route", "booking", { kind: "variable", variable: "topic", operator: "eq", value: "booking" }),
      wfEdge("route", "human", { kind: "default" }),
      wfEdge("billing", "bye", { kind: "model", description: "The caller has no more questions" }),
      wfEdge("booking", "bye", { kind: "model", description: "The visit is booked" }),
    ],
  };
  return wfDefinition(graph, variables);
}

/** Which kind of request a workflow sent the model (extraction, a condition to judge), or a reply. */
export function workflowRequestKind(request: ChatRequest): "extract" | "judge" | "reply" {
  const system = request.messages[0]?.content ?? "";
  if (system.startsWith("You read a phone conversation")) return "extract";
  if (system.startsWith("You route a phone conversation")) return "judge";
  return "reply";
}
