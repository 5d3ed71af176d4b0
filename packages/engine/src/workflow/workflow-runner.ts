import {
  type CallWorkflowRecord,
  renderWorkflowTemplate,
  type WorkflowEdge,
  type WorkflowNode,
  type WorkflowNodeOf,
  type WorkflowPathStep,
  type WorkflowTestState,
  type WorkflowValues,
  type WorkflowVariable,
} from "@parley/contract";
import type { ChatMessage, LlmProvider } from "../providers/types.ts";
import { chooseEdge } from "./edge-choice.ts";
import { type ExtractionItem, extractValues } from "./model-requests.ts";
import { runNodeWork } from "./node-work.ts";
import { type StepNote, stepPrompt } from "./step-prompt.ts";
import type { WorkflowDefinition, WorkflowEffects, WorkflowFinish, WorkflowObserver, WorkflowTurn } from "./types.ts";
import { coerceValue, initialValues, isSet } from "./values.ts";

/** Nodes a turn may pass through before it stops: a loop of routers must not spin for ever. */
const MAX_HOPS_PER_TURN = 25;
/** Tool and knowledge results the model keeps seeing (the latest ones). */
const MAX_NOTES = 5;

const TALKING = new Set<WorkflowNode["type"]>(["start", "conversation"]);

export interface WorkflowRunnerOptions {
  /** The assistant's language model: it extracts variables and judges "model" conditions. */
  llm: LlmProvider;
  effects: WorkflowEffects;
  /** Values known before the call (a campaign contact's columns): declared ones are typed and kept. */
  seed?: Record<string, string>;
  /** Where a text test left off; absent, the workflow starts at its start node. */
  state?: WorkflowTestState;
  /** The caller's today (YYYY-MM-DD), for relative dates; the system's date by default. */
  today?: string;
}

export interface AdvanceOptions {
  /** Milliseconds since the call started, read as each node is entered. */
  atMs(): number;
  /** Aborts the model requests and tools (the call ended). */
  signal: AbortSignal;
  observer?: WorkflowObserver;
}

const localToday = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
};

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Runs a workflow graph turn by turn. It says which step is active and what the model is told
 * there; after each caller turn it extracts the step's variables, picks the edge to follow
 * (variable conditions locally, "model" conditions with one request, the default last) and passes
 * through condition, tool and knowledge nodes in the same turn until it reaches a step that talks,
 * or a transfer or end node (which finishes it). A step entered whose required variables the
 * conversation already gives passes on too. It keeps the path taken and the variables. Turns run
 * one after another, whatever the caller does meanwhile.
 */
export class WorkflowRunner {
  private readonly nodes = new Map<string, WorkflowNode>();
  private readonly outgoing = new Map<string, WorkflowEdge[]>();
  private readonly declared: ReadonlyMap<string, WorkflowVariable>;
  private readonly seed: Record<string, string>;
  private readonly today: string;
  private values: WorkflowValues;
  private path: WorkflowPathStep[];
  private nodeId: string | null;
  private notes: StepNote[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly definition: WorkflowDefinition,
    private readonly options: WorkflowRunnerOptions,
  ) {
    for (const node of definition.graph.nodes) if (!this.nodes.has(node.id)) this.nodes.set(node.id, node);
    for (const edge of definition.graph.edges) {
      if (!this.nodes.has(edge.source) || !this.nodes.has(edge.target)) continue;
      this.outgoing.set(edge.source, [...(this.outgoing.get(edge.source) ?? []), edge]);
    }
    this.declared = new Map(definition.variables.map((v) => [v.name, v]));
    this.seed = options.seed ?? {};
    this.today = options.today ?? localToday();
    const state = options.state;
    this.values = { ...initialValues(definition.variables, this.seed), ...(state ? this.typed(state.variables) : {}) };
    this.path = state ? state.path.map((step) => ({ ...step })) : [];
    this.nodeId = state && this.nodes.has(state.node_id) ? state.node_id : null;
  }

  /** The node the workflow is at; null before `begin`. */
  get current(): WorkflowNode | null {
    return this.nodeId ? (this.nodes.get(this.nodeId) ?? null) : null;
  }

  /** True once a transfer, hand-off or end node is reached: nothing more happens. */
  get finished(): boolean {
    const type = this.current?.type;
    return type === "end" || type === "transfer" || type === "handoff";
  }

  /** Where the workflow is, for a text test to carry to its next turn. */
  get state(): WorkflowTestState {
    return { node_id: this.nodeId ?? "", variables: { ...this.values }, path: this.path.map((s) => ({ ...s })) };
  }

  /** What the call log keeps: the version run, the path taken and the variables. */
  record(): CallWorkflowRecord {
    return {
      workflow_id: this.definition.workflowId,
      version: this.definition.version,
      path: this.path.map((s) => ({ ...s })),
      variables: { ...this.values },
    };
  }

  /**
   * Enters the start node (once) and returns its greeting with the variables filled in; null when
   * the greeting is empty (the caller speaks first) or the workflow has no start node.
   */
  begin(atMs: number): string | null {
    if (this.nodeId) return null;
    const start = [...this.nodes.values()].find((n): n is WorkflowNodeOf<"start"> => n.type === "start");
    if (!start) return null;
    this.enter(start, "start", atMs);
    const greeting = renderWorkflowTemplate(start.data.greeting, this.templateValues(), "blank").trim();
    return greeting || null;
  }

  /** The system prompt of the active step, built on the assistant's own (`base`). */
  systemPrompt(base: string): string {
    return stepPrompt({
      base,
      globalPrompt: this.definition.globalPrompt,
      step: this.talkingStep(),
      values: this.values,
      templateValues: this.templateValues(),
      declared: this.declared,
      notes: this.notes,
    });
  }

  /**
   * Runs the workflow after a caller turn (`history` holds it): extraction, edges, and the nodes
   * that do not wait for the caller. Turns queue behind each other, so one asked for while the
   * previous is still deciding sees where that one left off.
   */
  advance(history: readonly ChatMessage[], options: AdvanceOptions): Promise<WorkflowTurn> {
    // The conversation as it is now: the session goes on changing its own history meanwhile.
    const snapshot = history.map((message) => ({ ...message }));
    const turn = this.queue.then(() => this.runTurn(snapshot, options));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async runTurn(history: ChatMessage[], options: AdvanceOptions): Promise<WorkflowTurn> {
    const result: WorkflowTurn = { transitions: [], finish: null };
    if (!this.nodeId) this.begin(options.atMs());
    let node = this.current;
    if (!node || this.finished) return result;
    await this.collect(history, options);
    if (node.type === "conversation" && !this.requiredCollected(node)) return result;
    for (let hops = 0; hops < MAX_HOPS_PER_TURN; hops += 1) {
      if (options.signal.aborted) return result;
      const next = await chooseEdge(node, this.outgoing.get(node.id) ?? [], {
        llm: this.options.llm,
        history,
        values: this.values,
        declared: this.declared,
        signal: options.signal,
        onError: options.observer?.onError,
      });
      if (!next) return result;
      const target = this.nodes.get(next.edge.target) as WorkflowNode;
      result.transitions.push({ from: node.id, to: target.id, reason: next.reason });
      this.enter(target, next.reason, options.atMs());
      node = target;
      if (node.type === "start") return result;
      if (node.type === "conversation") {
        // A step whose questions the caller has already answered is not asked again: it passes on.
        if (!this.asksRequired(node)) return result;
        await this.collect(history, options);
        if (!this.requiredCollected(node)) return result;
        continue;
      }
      const finish = this.finishOf(node);
      if (finish) return { ...result, finish };
      if (node.type === "handoff") {
        const message = renderWorkflowTemplate(node.data.message, this.templateValues()).trim();
        return { ...result, handoff: { nodeName: node.data.name, member: node.data.member.trim(), message } };
      }
      await this.work(node, options);
    }
    options.observer?.onError?.(
      `The workflow passed ${MAX_HOPS_PER_TURN} steps in one turn and stopped at "${node.data.name}".`,
    );
    return result;
  }

  /** Extracts the variables the talking step collects (the last one, while a router waits). */
  private async collect(history: ChatMessage[], options: AdvanceOptions): Promise<void> {
    const step = this.talkingStep();
    if (step?.type !== "conversation") return;
    const items: ExtractionItem[] = step.data.collect.flatMap((c) => {
      const variable = this.declared.get(c.variable);
      return variable ? [{ variable, description: c.description || variable.description }] : [];
    });
    if (items.length === 0) return;
    try {
      const found = await extractValues(
        this.options.llm,
        { items, history, values: this.values, today: this.today },
        options.signal,
      );
      this.values = { ...this.values, ...found };
    } catch (error) {
      if (!options.signal.aborted) options.observer?.onError?.(`Workflow extraction failed: ${describe(error)}`);
    }
  }

  private asksRequired(node: WorkflowNodeOf<"conversation">): boolean {
    return node.data.collect.some((c) => c.required && this.declared.has(c.variable));
  }

  private requiredCollected(node: WorkflowNodeOf<"conversation">): boolean {
    return node.data.collect.every(
      (c) => !c.required || !this.declared.has(c.variable) || isSet(this.values[c.variable]),
    );
  }

  private finishOf(node: WorkflowNode): WorkflowFinish | null {
    const values = this.templateValues();
    if (node.type === "end") {
      return {
        type: "end",
        nodeName: node.data.name,
        message: renderWorkflowTemplate(node.data.message, values).trim(),
      };
    }
    if (node.type === "transfer") {
      return {
        type: "transfer",
        nodeName: node.data.name,
        destination: renderWorkflowTemplate(node.data.destination, values).trim(),
        message: renderWorkflowTemplate(node.data.message, values).trim(),
      };
    }
    return null;
  }

  /** Runs a tool or knowledge node and keeps its result; a condition node has nothing to do. */
  private async work(node: WorkflowNode, options: AdvanceOptions): Promise<void> {
    if (node.type !== "tool" && node.type !== "knowledge") return;
    const outcome = await runNodeWork(node, {
      effects: this.options.effects,
      values: this.templateValues(),
      signal: options.signal,
      atMs: options.atMs,
      observer: options.observer,
    });
    const note = {
      node: node.data.name || node.type,
      content: outcome.ok ? outcome.content : `failed: ${outcome.content}`,
    };
    this.notes = [...this.notes, note].slice(-MAX_NOTES);
    const target = node.data.result_variable;
    const variable = target ? this.declared.get(target) : undefined;
    // A failed tool leaves its variable unset, so an `is_not_set` edge can route around the failure.
    if (variable && outcome.ok)
      this.values = { ...this.values, [variable.name]: coerceValue(variable, outcome.content) };
  }

  private enter(node: WorkflowNode, reason: string, atMs: number): void {
    this.nodeId = node.id;
    this.path.push({
      node_id: node.id,
      node_name: node.data.name,
      node_type: node.type,
      entered_at_ms: Math.max(0, Math.round(atMs)),
      reason,
    });
  }

  /** The step the model talks in: the active node, or the last talking one while a router waits. */
  private talkingStep(): WorkflowNode | null {
    const current = this.current;
    if (!current || TALKING.has(current.type)) return current;
    for (let i = this.path.length - 1; i >= 0; i -= 1) {
      const node = this.nodes.get(this.path[i]?.node_id ?? "");
      if (node && TALKING.has(node.type)) return node;
    }
    return null;
  }

  /** Declared values over the call's own (a contact's columns), unset ones left out. */
  private templateValues(): WorkflowValues {
    const own = Object.fromEntries(Object.entries(this.values).filter(([, v]) => isSet(v)));
    return { ...this.seed, ...own };
  }

  /** A carried state's values typed again (a text test's client may send them back as text). */
  private typed(values: WorkflowValues): WorkflowValues {
    return Object.fromEntries(
      [...this.declared.values()].map((v) => [v.name, coerceValue(v, values[v.name])] as const),
    );
  }
}
