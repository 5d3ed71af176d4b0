import type {
  WorkflowCondition,
  WorkflowEdge,
  WorkflowGraph,
  WorkflowIssue,
  WorkflowNode,
  WorkflowValues,
  WorkflowVariable,
} from "./workflows.ts";
import { WORKFLOW_UNARY_OPERATORS } from "./workflows.ts";

/**
 * Whether a workflow graph can run, as a list of issues placed on nodes and edges. Pure, so the
 * canvas marks them while the graph is edited and the server refuses to publish the same ones.
 * An empty list means the graph is valid.
 */

const TEMPLATE = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The variable names a template uses, in order of first use ("Hi {{first_name}}" → ["first_name"]). */
export function templateVariables(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(TEMPLATE)) if (match[1]) names.add(match[1]);
  return [...names];
}

/**
 * A template with its {{variables}} filled in. A variable without a value (unknown or null) is
 * left as written for `keep`, or removed for `blank` (what a caller hears must not read braces).
 */
export function renderWorkflowTemplate(
  text: string,
  values: WorkflowValues,
  missing: "keep" | "blank" = "blank",
): string {
  return text.replace(TEMPLATE, (whole, name: string) => {
    const value = values[name];
    if (value === undefined || value === null) return missing === "keep" ? whole : "";
    return String(value);
  });
}

/** A transfer goes to an E.164 number, a sip: URI or an extension of digits. */
export const WORKFLOW_TRANSFER_DESTINATION = /^(\+[1-9]\d{6,14}|sips?:\S+|[0-9*#]{1,20})$/;

/** Nodes that finish the workflow: nothing may leave them. */
const TERMINAL: ReadonlySet<WorkflowNode["type"]> = new Set(["end", "transfer", "handoff"]);

/** A squad member's name, as the squad's hand-off tools spell it. */
const MEMBER_NAME = /^[a-z][a-z0-9_]{0,39}$/;
/**
 * Nodes that do not wait for the caller: when none of their conditional edges matches they would
 * hang, so they need a default (or unconditional) way out.
 */
const INSTANT: ReadonlySet<WorkflowNode["type"]> = new Set(["condition", "tool", "knowledge"]);

/** The {{templates}} of a node with the field each sits in. */
function nodeTemplates(node: WorkflowNode): [field: string, text: string][] {
  switch (node.type) {
    case "start":
      return [
        ["greeting", node.data.greeting],
        ["prompt", node.data.prompt],
      ];
    case "conversation":
      return [["prompt", node.data.prompt]];
    case "tool":
      return Object.entries(node.data.arguments).map(([name, text]) => [`arguments.${name}`, text]);
    case "knowledge":
      return [["query", node.data.query]];
    case "transfer":
    case "handoff":
    case "end":
      return [["message", node.data.message]];
    case "condition":
      return [];
  }
}

/** The variables a node writes or names directly (not in templates), with their field. */
function nodeVariableRefs(node: WorkflowNode): [field: string, name: string][] {
  switch (node.type) {
    case "conversation":
      return node.data.collect.map((c, i) => [`collect.${i}.variable`, c.variable]);
    case "tool":
      return node.data.result_variable ? [["result_variable", node.data.result_variable]] : [];
    case "knowledge":
      return node.data.result_variable ? [["result_variable", node.data.result_variable]] : [];
    default:
      return [];
  }
}

const label = (node: WorkflowNode) => node.data.name.trim() || node.type;

/** Fields a node cannot run without. */
function missingFields(node: WorkflowNode): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const missing = (field: string, what: string) =>
    issues.push({ code: "missing_field", node_id: node.id, field, message: `"${label(node)}" needs ${what}.` });
  switch (node.type) {
    case "conversation":
      if (!node.data.prompt.trim()) missing("prompt", "a prompt");
      break;
    case "tool": {
      const tool = node.data.tool;
      if (tool.kind === "function" && !tool.function_id) missing("tool", "a function to call");
      if (tool.kind === "mcp" && (!tool.mcp_server_id || !tool.tool_name.trim()))
        missing("tool", "an MCP server and tool");
      break;
    }
    case "knowledge":
      if (!node.data.query.trim()) missing("query", "a search query");
      if (!node.data.result_variable.trim()) missing("result_variable", "a variable for the result");
      break;
    case "transfer": {
      const destination = node.data.destination.trim();
      if (!destination) missing("destination", "a destination number or extension");
      else if (!WORKFLOW_TRANSFER_DESTINATION.test(destination)) {
        issues.push({
          code: "invalid_field",
          node_id: node.id,
          field: "destination",
          message: `"${label(node)}" must transfer to an E.164 number (+15551234567), a sip: address or an extension.`,
        });
      }
      break;
    }
    case "handoff": {
      const member = node.data.member.trim();
      if (!member) missing("member", "a squad member to hand the call to");
      else if (!MEMBER_NAME.test(member)) {
        issues.push({
          code: "invalid_field",
          node_id: node.id,
          field: "member",
          message: `"${label(node)}" must name a squad member as the squad spells it (lowercase letters, digits, underscores).`,
        });
      }
      break;
    }
    default:
      break;
  }
  return issues;
}

function checkVariables(variables: WorkflowVariable[]): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const seen = new Set<string>();
  for (const v of variables) {
    if (seen.has(v.name)) {
      issues.push({
        code: "duplicate_variable",
        variable: v.name,
        message: `The variable "${v.name}" is declared twice.`,
      });
    }
    seen.add(v.name);
    if (v.type === "enum" && !(v.enum_values && v.enum_values.length > 0)) {
      issues.push({
        code: "enum_without_values",
        variable: v.name,
        message: `The choice variable "${v.name}" needs at least one value.`,
      });
    }
  }
  return issues;
}

const ORDERED_TYPES: ReadonlySet<WorkflowVariable["type"]> = new Set(["number", "date"]);

/** A condition's own completeness and its fit with the variable it tests. */
function checkCondition(
  edge: WorkflowEdge,
  condition: WorkflowCondition,
  declared: ReadonlyMap<string, WorkflowVariable>,
): WorkflowIssue[] {
  if (condition.kind === "model") {
    return condition.description.trim()
      ? []
      : [{ code: "missing_condition", edge_id: edge.id, message: "Describe when the model should take this edge." }];
  }
  if (condition.kind !== "variable") return [];
  if (!condition.variable) {
    return [{ code: "missing_condition", edge_id: edge.id, message: "Choose the variable this edge tests." }];
  }
  const variable = declared.get(condition.variable);
  if (!variable) {
    return [
      {
        code: "missing_variable",
        edge_id: edge.id,
        variable: condition.variable,
        message: `The condition tests "${condition.variable}", which is not declared.`,
      },
    ];
  }
  const unary = WORKFLOW_UNARY_OPERATORS.includes(condition.operator);
  const value = condition.value ?? "";
  if (!unary && value === "") {
    return [{ code: "missing_condition", edge_id: edge.id, message: "Enter the value this edge compares with." }];
  }
  const invalid = (message: string): WorkflowIssue[] => [
    { code: "invalid_condition", edge_id: edge.id, variable: variable.name, message },
  ];
  if (["gt", "gte", "lt", "lte"].includes(condition.operator) && !ORDERED_TYPES.has(variable.type)) {
    return invalid(`"${variable.name}" is a ${variable.type}: only numbers and dates compare as greater or less.`);
  }
  if (condition.operator === "contains" && variable.type !== "string") {
    return invalid(`"contains" needs a text variable; "${variable.name}" is a ${variable.type}.`);
  }
  if (!unary && variable.type === "number" && !Number.isFinite(Number(value))) {
    return invalid(`"${variable.name}" is a number: compare it with a number.`);
  }
  if (!unary && variable.type === "boolean" && value !== "true" && value !== "false") {
    return invalid(`"${variable.name}" is true or false: compare it with true or false.`);
  }
  if (!unary && variable.type === "date" && !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return invalid(`"${variable.name}" is a date: compare it with a date written YYYY-MM-DD.`);
  }
  if (!unary && variable.type === "enum" && variable.enum_values && !variable.enum_values.includes(value)) {
    return invalid(`"${value}" is not one of the values of "${variable.name}".`);
  }
  return [];
}

/** The conditions of the edges leaving one node, taken together. */
function checkOutgoing(node: WorkflowNode, out: WorkflowEdge[]): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  if (TERMINAL.has(node.type)) {
    for (const edge of out) {
      issues.push({
        code: "edge_from_terminal",
        edge_id: edge.id,
        node_id: node.id,
        message: `"${label(node)}" ends the workflow: no edge can leave it.`,
      });
    }
    return issues;
  }
  if (out.length === 0) {
    return [{ code: "dead_end", node_id: node.id, message: `"${label(node)}" has no way out.` }];
  }
  if (out.length > 1) {
    const defaults = out.filter((e) => e.condition.kind === "default");
    for (const edge of out) {
      if (edge.condition.kind === "always") {
        issues.push({
          code: "ambiguous_edges",
          edge_id: edge.id,
          node_id: node.id,
          message: `Several edges leave "${label(node)}": give this one a condition or make it the default.`,
        });
      }
    }
    for (const edge of defaults.slice(1)) {
      issues.push({
        code: "several_defaults",
        edge_id: edge.id,
        node_id: node.id,
        message: `"${label(node)}" has more than one default edge.`,
      });
    }
  }
  const unconditional = out.some((e) => e.condition.kind === "default" || e.condition.kind === "always");
  if (INSTANT.has(node.type) && !unconditional) {
    issues.push({
      code: "missing_default",
      node_id: node.id,
      message: `"${label(node)}" does not wait for the caller: add a default edge for when no condition matches.`,
    });
  }
  return issues;
}

/** Every node reachable from `start` over the given edges. */
function reachableFrom(start: string, edges: WorkflowEdge[]): Set<string> {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.source, [...(next.get(e.source) ?? []), e.target]);
  const seen = new Set([start]);
  const queue = [start];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const target of next.get(id) ?? []) {
      if (!seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return seen;
}

/**
 * The issues of a graph with its declared variables (and the workflow's global prompt, whose
 * {{variables}} must be declared too). Order: graph-wide issues, then per node, then per edge.
 */
export function validateWorkflow(
  graph: WorkflowGraph,
  variables: WorkflowVariable[],
  globalPrompt = "",
): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [...checkVariables(variables)];
  const declared = new Map(variables.map((v) => [v.name, v]));
  const nodes = new Map<string, WorkflowNode>();
  for (const node of graph.nodes) {
    if (nodes.has(node.id)) {
      issues.push({ code: "duplicate_id", node_id: node.id, message: `Two nodes share the id "${node.id}".` });
    } else nodes.set(node.id, node);
  }
  const edgeIds = new Set<string>();
  for (const edge of graph.edges) {
    if (edgeIds.has(edge.id)) {
      issues.push({ code: "duplicate_id", edge_id: edge.id, message: `Two edges share the id "${edge.id}".` });
    }
    edgeIds.add(edge.id);
  }

  const starts = graph.nodes.filter((n) => n.type === "start");
  if (starts.length === 0) issues.push({ code: "no_start", message: "The workflow needs a start node." });
  for (const extra of starts.slice(1)) {
    issues.push({ code: "several_starts", node_id: extra.id, message: "A workflow has exactly one start node." });
  }

  const edges: WorkflowEdge[] = [];
  for (const edge of graph.edges) {
    if (nodes.has(edge.source) && nodes.has(edge.target)) edges.push(edge);
    else {
      issues.push({
        code: "dangling_edge",
        edge_id: edge.id,
        message: "This edge is not connected to a node at both ends.",
      });
    }
  }

  const undeclared = (name: string, where: Pick<WorkflowIssue, "node_id" | "field">, what: string) => {
    if (!declared.has(name)) {
      issues.push({
        code: "missing_variable",
        variable: name,
        ...where,
        message: `${what} "${name}", which is not declared.`,
      });
    }
  };
  for (const name of templateVariables(globalPrompt))
    undeclared(name, { field: "global_prompt" }, "The global prompt uses");

  const start = starts[0];
  const reached = start ? reachableFrom(start.id, edges) : null;
  for (const node of nodes.values()) {
    if (reached && !reached.has(node.id)) {
      issues.push({
        code: "unreachable",
        node_id: node.id,
        message: `"${label(node)}" cannot be reached from the start.`,
      });
    }
    issues.push(
      ...checkOutgoing(
        node,
        edges.filter((e) => e.source === node.id),
      ),
    );
    issues.push(...missingFields(node));
    for (const [field, text] of nodeTemplates(node)) {
      for (const name of templateVariables(text))
        undeclared(name, { node_id: node.id, field }, `"${label(node)}" uses`);
    }
    for (const [field, name] of nodeVariableRefs(node)) {
      if (!name) {
        issues.push({
          code: "missing_field",
          node_id: node.id,
          field,
          message: `"${label(node)}" has a variable left empty.`,
        });
      } else undeclared(name, { node_id: node.id, field }, `"${label(node)}" writes`);
    }
  }
  for (const edge of edges) issues.push(...checkCondition(edge, edge.condition, declared));
  return issues;
}
