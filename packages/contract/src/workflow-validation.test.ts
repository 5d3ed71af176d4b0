import { describe, expect, it } from "vitest";
import { renderWorkflowTemplate, templateVariables, validateWorkflow } from "./workflow-validation.ts";
import {
  starterWorkflowGraph,
  type WorkflowEdge,
  WorkflowGraph,
  type WorkflowNode,
  type WorkflowVariable,
} from "./workflows.ts";

const at = { x: 0, y: 0 };
const start = (greeting = "Hi!"): WorkflowNode => ({
  id: "start",
  type: "start",
  position: at,
  data: { name: "Start", greeting, prompt: "" },
});
const step = (id: string, prompt = "Ask how we can help.", collect: string[] = []): WorkflowNode => ({
  id,
  type: "conversation",
  position: at,
  data: { name: id, prompt, collect: collect.map((variable) => ({ variable, description: "", required: true })) },
});
const router = (id: string): WorkflowNode => ({ id, type: "condition", position: at, data: { name: id } });
const end = (id = "end", message = "Bye"): WorkflowNode => ({
  id,
  type: "end",
  position: at,
  data: { name: id, message },
});
const transfer = (id: string, destination: string): WorkflowNode => ({
  id,
  type: "transfer",
  position: at,
  data: { name: id, destination, message: "Connecting you." },
});
const always = (id: string, source: string, target: string): WorkflowEdge => ({
  id,
  source,
  target,
  condition: { kind: "always" },
});
const fallback = (id: string, source: string, target: string): WorkflowEdge => ({
  id,
  source,
  target,
  condition: { kind: "default" },
});
const when = (id: string, source: string, target: string, variable: string, value: string): WorkflowEdge => ({
  id,
  source,
  target,
  condition: { kind: "variable", variable, operator: "eq", value },
});
const judged = (id: string, source: string, target: string, description: string): WorkflowEdge => ({
  id,
  source,
  target,
  condition: { kind: "model", description },
});
const reason: WorkflowVariable = { name: "reason", type: "enum", description: "", enum_values: ["sales", "support"] };

const codes = (issues: { code: string }[]) => issues.map((i) => i.code).sort();

/** start → ask (collects reason) → route → sales | support | (default) end. */
function threeBranches(): { nodes: WorkflowNode[]; edges: WorkflowEdge[] } {
  return {
    nodes: [
      start(),
      step("ask", "Ask why they call.", ["reason"]),
      router("route"),
      end("sales"),
      end("support"),
      end(),
    ],
    edges: [
      always("e1", "start", "ask"),
      judged("e2", "ask", "route", "The caller said why they call"),
      when("e3", "route", "sales", "reason", "sales"),
      when("e4", "route", "support", "reason", "support"),
      fallback("e5", "route", "end"),
    ],
  };
}

describe("validateWorkflow", () => {
  it("accepts the starter graph and a three-branch router", () => {
    expect(validateWorkflow(starterWorkflowGraph(), [])).toEqual([]);
    expect(validateWorkflow(threeBranches(), [reason])).toEqual([]);
  });

  it("needs exactly one start", () => {
    expect(codes(validateWorkflow({ nodes: [end()], edges: [] }, []))).toEqual(["no_start"]);
    const two = validateWorkflow(
      {
        nodes: [start(), { ...start(), id: "start2" }, end()],
        edges: [always("a", "start", "end"), always("b", "start2", "end")],
      },
      [],
    );
    expect(two).toContainEqual(expect.objectContaining({ code: "several_starts", node_id: "start2" }));
  });

  it("marks nodes the start cannot reach, and nodes with no way out", () => {
    const graph = { nodes: [start(), step("ask"), end(), step("lonely")], edges: [always("e1", "start", "ask")] };
    const issues = validateWorkflow(graph, []);
    expect(issues).toContainEqual(expect.objectContaining({ code: "unreachable", node_id: "lonely" }));
    expect(issues).toContainEqual(expect.objectContaining({ code: "unreachable", node_id: "end" }));
    expect(issues).toContainEqual(expect.objectContaining({ code: "dead_end", node_id: "ask" }));
    expect(issues).toContainEqual(expect.objectContaining({ code: "dead_end", node_id: "lonely" }));
    // End and transfer nodes finish the call: no way out is needed, and none is allowed.
    expect(issues.filter((i) => i.node_id === "end").map((i) => i.code)).toEqual(["unreachable"]);
    const leaving = validateWorkflow(
      { nodes: [start(), end(), step("after")], edges: [always("e1", "start", "end"), always("e2", "end", "after")] },
      [],
    );
    expect(leaving).toContainEqual(expect.objectContaining({ code: "edge_from_terminal", edge_id: "e2" }));
  });

  it("flags edges to or from nodes that do not exist", () => {
    const graph = { nodes: [start(), end()], edges: [always("e1", "start", "end"), always("e2", "start", "ghost")] };
    expect(validateWorkflow(graph, [])).toContainEqual(
      expect.objectContaining({ code: "dangling_edge", edge_id: "e2" }),
    );
  });

  it("needs a condition on each of several edges, with at most one default", () => {
    const graph = threeBranches();
    graph.edges[2] = always("e3", "route", "sales");
    expect(validateWorkflow(graph, [reason])).toEqual([
      expect.objectContaining({ code: "ambiguous_edges", edge_id: "e3", node_id: "route" }),
    ]);
    const twoDefaults = threeBranches();
    twoDefaults.edges[3] = fallback("e4", "route", "support");
    expect(codes(validateWorkflow(twoDefaults, [reason]))).toEqual(["several_defaults"]);
  });

  it("needs a default where a node does not wait for the caller", () => {
    const graph = threeBranches();
    graph.edges = graph.edges.filter((e) => e.id !== "e5");
    graph.nodes = graph.nodes.filter((n) => n.id !== "end");
    expect(validateWorkflow(graph, [reason])).toEqual([
      expect.objectContaining({ code: "missing_default", node_id: "route" }),
    ]);
  });

  it("needs every variable used to be declared", () => {
    const graph = threeBranches();
    graph.nodes[0] = start("Hello {{ first_name }}!");
    const issues = validateWorkflow(graph, [], "You work for {{company}}.");
    const missing = issues
      .filter((i) => i.code === "missing_variable")
      .map((i) => [i.variable, i.node_id ?? i.edge_id ?? i.field]);
    expect(missing).toEqual(
      expect.arrayContaining([
        ["company", "global_prompt"],
        ["first_name", "start"],
        ["reason", "ask"],
        ["reason", "e3"],
        ["reason", "e4"],
      ]),
    );
    const declared: WorkflowVariable[] = [
      reason,
      { name: "first_name", type: "string", description: "" },
      { name: "company", type: "string", description: "" },
    ];
    expect(validateWorkflow(graph, declared, "You work for {{company}}.")).toEqual([]);
  });

  it("checks tool, knowledge and transfer nodes for what they need", () => {
    const tool: WorkflowNode = {
      id: "tool",
      type: "tool",
      position: at,
      data: {
        name: "Book",
        tool: { kind: "function", function_id: "" },
        arguments: { day: "{{day}}" },
        result_variable: "booking",
      },
    };
    const lookup: WorkflowNode = {
      id: "kb",
      type: "knowledge",
      position: at,
      data: { name: "Look up", query: "", result_variable: "" },
    };
    const graph = {
      nodes: [start(), tool, lookup, transfer("human", "reception desk")],
      edges: [always("e1", "start", "tool"), always("e2", "tool", "kb"), always("e3", "kb", "human")],
    };
    const issues = validateWorkflow(graph, []);
    expect(issues.map((i) => [i.code, i.node_id, i.field ?? i.variable])).toEqual(
      expect.arrayContaining([
        ["missing_field", "tool", "tool"],
        ["missing_variable", "tool", "arguments.day"],
        ["missing_variable", "tool", "result_variable"],
        ["missing_field", "kb", "query"],
        ["missing_field", "kb", "result_variable"],
        ["invalid_field", "human", "destination"],
      ]),
    );
    for (const destination of ["+15551234567", "sip:desk@pbx.example.com", "1001"]) {
      const ok = { ...graph, nodes: [start(), end("tool"), transfer("human", destination)] };
      ok.edges = [always("e1", "start", "human")];
      expect(validateWorkflow(ok, []).filter((i) => i.node_id === "human")).toEqual([]);
    }
  });

  it("checks conditions against the variable's type", () => {
    const vars: WorkflowVariable[] = [
      { name: "age", type: "number", description: "" },
      { name: "vip", type: "boolean", description: "" },
      { name: "day", type: "date", description: "" },
      reason,
    ];
    const graph = (condition: WorkflowEdge["condition"]) => ({
      nodes: [start(), router("route"), end("a"), end("b")],
      edges: [
        always("e1", "start", "route"),
        { id: "c", source: "route", target: "a", condition },
        fallback("d", "route", "b"),
      ],
    });
    const issue = (condition: WorkflowEdge["condition"]) => validateWorkflow(graph(condition), vars).map((i) => i.code);
    expect(issue({ kind: "variable", variable: "age", operator: "gte", value: "18" })).toEqual([]);
    expect(issue({ kind: "variable", variable: "age", operator: "eq", value: "old" })).toEqual(["invalid_condition"]);
    expect(issue({ kind: "variable", variable: "vip", operator: "gt", value: "true" })).toEqual(["invalid_condition"]);
    expect(issue({ kind: "variable", variable: "vip", operator: "eq", value: "yes" })).toEqual(["invalid_condition"]);
    expect(issue({ kind: "variable", variable: "day", operator: "lt", value: "2025-01-31" })).toEqual([]);
    expect(issue({ kind: "variable", variable: "reason", operator: "eq", value: "billing" })).toEqual([
      "invalid_condition",
    ]);
    expect(issue({ kind: "variable", variable: "reason", operator: "contains", value: "s" })).toEqual([
      "invalid_condition",
    ]);
    expect(issue({ kind: "variable", variable: "reason", operator: "is_set" })).toEqual([]);
    expect(issue({ kind: "variable", variable: "age", operator: "eq" })).toEqual(["missing_condition"]);
    expect(issue({ kind: "variable", variable: "", operator: "eq", value: "1" })).toEqual(["missing_condition"]);
    expect(issue({ kind: "model", description: "  " })).toEqual(["missing_condition"]);
  });

  it("flags duplicate ids, duplicate variables and choices without values", () => {
    const graph = starterWorkflowGraph();
    graph.nodes.push({ ...end(), position: { x: 5, y: 5 } });
    graph.edges.push(judged("start-end", "start", "end", "The caller is done"));
    const issues = validateWorkflow(graph, [
      { name: "x", type: "string", description: "" },
      { name: "x", type: "number", description: "" },
      { name: "plan", type: "enum", description: "" },
    ]);
    expect(codes(issues)).toEqual(["duplicate_id", "duplicate_id", "duplicate_variable", "enum_without_values"]);
  });
});

describe("templates", () => {
  it("lists and fills {{variables}}", () => {
    expect(templateVariables("Hi {{name}}, {{ name }} on {{day}}")).toEqual(["name", "day"]);
    expect(renderWorkflowTemplate("Hi {{name}} on {{day}}", { name: "Ada", day: null })).toBe("Hi Ada on ");
    expect(renderWorkflowTemplate("Hi {{name}} {{n}}", { n: 3 }, "keep")).toBe("Hi {{name}} 3");
  });
});

describe("WorkflowGraph schema", () => {
  it("saves drafts that do not validate yet, but not malformed ones", () => {
    const draft = {
      nodes: [{ id: "t", type: "tool", position: at, data: { name: "", tool: { kind: "function", function_id: "" } } }],
      edges: [],
    };
    const parsed = WorkflowGraph.parse(draft);
    expect(parsed.nodes[0]).toMatchObject({ data: { arguments: {}, result_variable: null } });
    expect(
      WorkflowGraph.safeParse({ nodes: [{ id: "x", type: "teleport", position: at, data: {} }], edges: [] }).success,
    ).toBe(false);
    expect(
      WorkflowGraph.safeParse({
        nodes: [],
        edges: [{ id: "e", source: "a", target: "b", condition: { kind: "maybe" } }],
      }).success,
    ).toBe(false);
  });
});
