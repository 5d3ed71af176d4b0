import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Typography from "@mui/material/Typography";
import {
  validateWorkflow,
  type Workflow,
  type WorkflowIssue,
  type WorkflowNodeType,
  type WorkflowPosition,
} from "@parley/contract";
import { useReactFlow } from "@xyflow/react";
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { useOpenedOnce } from "../../../components/opened-once.ts";
import { useSnackbar } from "../../../lib/snackbar.ts";
import { useDrawnInSteps } from "../../../lib/use-drawn-in-steps.ts";
import { PublishRefused, usePublishWorkflow, useSaveWorkflow } from "../api/workflows-api.ts";
import { useCanvasElements } from "../hooks/use-canvas-elements.ts";
import { useUndoKeys } from "../hooks/use-undo-keys.ts";
import { useUnsavedChangesGuard } from "../hooks/use-unsaved-changes-guard.ts";
import { draftOf, useWorkflowDraft, type WorkflowDraft } from "../hooks/use-workflow-draft.ts";
import { autoLayout, type NodeSize } from "../utils/auto-layout.ts";
import { NOTHING_SELECTED, type Selection } from "../utils/flow-elements.ts";
import {
  addNode,
  blankNode,
  connect,
  freeId,
  moveNodes,
  removeElements,
  replaceEdge,
  replaceNode,
} from "../utils/graph-edits.ts";
import { builderGrid, sideColumn } from "./builder-frame.tsx";
import { BuilderToolbar } from "./builder-toolbar.tsx";
import { EdgePanel } from "./edge-panel.tsx";
import { IssuesList } from "./issues-list.tsx";
import { NodePalette } from "./node-palette.tsx";
import { NodePanel } from "./node-panel.tsx";
import { PublishIssuesDialog } from "./publish-issues-dialog.tsx";
import { SettingsPanel } from "./settings-panel.tsx";
import type { TestProgress } from "./test-panel.tsx";
import { UnsavedChangesDialog } from "./unsaved-changes-dialog.tsx";
import { VersionsDialog } from "./versions-dialog.tsx";
import { WorkflowCanvas } from "./workflow-canvas.tsx";

// The test chat (and the assistants list it offers, with their schemas) loads when its tab is first
// opened: the canvas is what everyone opening the builder waits for.
const TestPanel = lazy(() => import("./test-panel.tsx").then((module) => ({ default: module.TestPanel })));

type PanelTab = "selection" | "workflow" | "issues" | "test";

/**
 * The workflow builder: palette, canvas and side panel over one undoable draft, validated live
 * with the contract's validator, saved as the draft and published as a version.
 * Must sit inside a ReactFlowProvider (the palette places nodes in the canvas's view).
 */
export function WorkflowBuilder(props: { workflow: Workflow; heading?: ReactNode }) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const { enqueueSnackbar } = useSnackbar();
  const { workflow } = props;
  const saved = useMemo(() => draftOf(workflow), [workflow]);
  const { draft, dirty, edit, undo, redo, canUndo, canRedo, rebase } = useWorkflowDraft(saved);
  // The draft as it is now, for a save that finishes after more edits were made.
  const latest = useRef(draft);
  latest.current = draft;
  const save = useSaveWorkflow(workflow.id);
  const publish = usePublishWorkflow();
  const flow = useReactFlow();
  const canvasBox = useRef<HTMLDivElement>(null);
  const [selection, setSelection] = useState<Selection>(NOTHING_SELECTED);
  const [sizes, setSizes] = useState<ReadonlyMap<string, NodeSize>>(new Map());
  const [tab, setTab] = useState<PanelTab>("workflow");
  const [versionsOpen, setVersionsOpen] = useState(false);
  const [fitPending, setFitPending] = useState(false);
  const testOpened = useOpenedOnce(tab === "test");
  // The side panel comes in two steps after the canvas, each its own render and commit: its tabs
  // (which measure themselves for their indicator), then the settings (text fields that measure
  // their height). Drawn with the canvas they made one task of 400 ms on the Lighthouse phone, with
  // the page laid out more than once inside it.
  const panelSteps = useDrawnInSteps(2);
  const [refused, setRefused] = useState<{ message: string; issues: WorkflowIssue[] } | null>(null);
  const [progress, setProgress] = useState<TestProgress>({ nodeId: null, walked: [] });
  const blocker = useUnsavedChangesGuard(dirty);
  useUndoKeys(undo, redo);

  const { graph } = draft;
  const { issues, textOf, marked, nodes, edges } = useCanvasElements(draft, { selection, sizes, progress });

  const editGraph = useCallback(
    (change: (g: WorkflowDraft["graph"]) => WorkflowDraft["graph"], group?: string) =>
      edit((d) => ({ ...d, graph: change(d.graph) }), group),
    [edit],
  );
  const select = useCallback((next: Selection) => {
    setSelection(next);
    if (next.nodes.length + next.edges.length === 1) setTab("selection");
  }, []);
  const measured = useCallback(
    (changed: Map<string, NodeSize>) => setSizes((before) => new Map([...before, ...changed])),
    [],
  );

  const addKind = useCallback(
    (type: WorkflowNodeType, at?: WorkflowPosition) => {
      let position = at;
      if (!position) {
        // Pressed in the palette: the middle of what the canvas shows, nudged so repeated adds do not stack.
        const box = canvasBox.current?.getBoundingClientRect();
        const centre = flow.screenToFlowPosition({
          x: (box?.left ?? 0) + (box?.width ?? 0) / 2 - 120,
          y: (box?.top ?? 0) + (box?.height ?? 0) / 2 - 40,
        });
        const nudge = (graph.nodes.length % 5) * 24;
        position = { x: centre.x + nudge, y: centre.y + nudge };
      }
      const id = freeId(
        type,
        graph.nodes.map((n) => n.id),
      );
      const count = graph.nodes.filter((n) => n.type === type).length;
      const name = count === 0 ? t(`kinds.${type}`) : `${t(`kinds.${type}`)} ${count + 1}`;
      editGraph((g) => addNode(g, blankNode(type, id, name, { x: Math.round(position.x), y: Math.round(position.y) })));
      select({ nodes: [id], edges: [] });
    },
    [flow, graph.nodes, editGraph, select, t],
  );

  const saveDraft = async (): Promise<Workflow | null> => {
    const sent = draft;
    try {
      const result = await save.mutateAsync(sent);
      // What the server stored is the new baseline; edits made while it saved stay unsaved.
      if (latest.current === sent) rebase(draftOf(result));
      return result;
    } catch (error) {
      enqueueSnackbar(errorText(error, t("saveFailed")), { variant: "error" });
      return null;
    }
  };
  const onSave = async () => {
    if (await saveDraft()) enqueueSnackbar(t("saved"), { variant: "success" });
  };
  const saveFirst = async () => !dirty || (await saveDraft()) !== null;
  const onPublish = async () => {
    const current = validateWorkflow(draft.graph, draft.variables, draft.global_prompt);
    if (current.length > 0) {
      setRefused({ message: t("publish.refused"), issues: current });
      return;
    }
    const stored = dirty ? await saveDraft() : workflow;
    if (!stored) return;
    try {
      const result = await publish.mutateAsync(stored);
      enqueueSnackbar(t("publish.done", { n: result.published_version ?? 1 }), { variant: "success" });
    } catch (error) {
      if (error instanceof PublishRefused) setRefused({ message: error.message, issues: error.issues });
      else enqueueSnackbar(errorText(error, t("publish.failed")), { variant: "error" });
    }
  };
  const onLayout = async () => {
    const positions = await autoLayout(graph, sizes);
    editGraph((g) => moveNodes(g, positions));
    setFitPending(true);
  };
  // The view is fitted once the canvas holds the laid-out positions (React Flow takes them in its
  // own effect, which runs before this one).
  useEffect(() => {
    if (!fitPending) return;
    setFitPending(false);
    void flow.fitView({ padding: 0.2, maxZoom: 1, duration: 300 });
  }, [fitPending, flow]);
  const showIssue = (issue: WorkflowIssue) => {
    const next = issue.edge_id
      ? { nodes: [], edges: [issue.edge_id] }
      : { nodes: issue.node_id ? [issue.node_id] : [], edges: [] };
    select(next);
    const node = graph.nodes.find((n) => n.id === issue.node_id);
    if (node) void flow.setCenter(node.position.x + 120, node.position.y + 40, { zoom: 1, duration: 300 });
  };
  const declare = (name: string) =>
    edit((d) => ({ ...d, variables: [...d.variables, { name, type: "string", description: "" }] }));

  const selectedNode = selection.nodes.length === 1 ? graph.nodes.find((n) => n.id === selection.nodes[0]) : undefined;
  const selectedEdge =
    selection.edges.length === 1 && selection.nodes.length === 0
      ? graph.edges.find((e) => e.id === selection.edges[0])
      : undefined;

  return (
    <Stack spacing={2}>
      {props.heading}
      <BuilderToolbar
        title={draft.name}
        workflow={workflow}
        dirty={dirty}
        canUndo={canUndo}
        canRedo={canRedo}
        busy={{ saving: save.isPending, publishing: publish.isPending }}
        onUndo={undo}
        onRedo={redo}
        onLayout={() => void onLayout()}
        onVersions={() => setVersionsOpen(true)}
        onSave={() => void onSave()}
        onPublish={() => void onPublish()}
      />
      <Paper variant="outlined" sx={builderGrid}>
        <Box sx={{ ...sideColumn, borderInlineEnd: { md: 1 } }}>
          <NodePalette hasStart={graph.nodes.some((n) => n.type === "start")} onAdd={(type) => addKind(type)} />
        </Box>
        <Box ref={canvasBox} sx={{ minHeight: 0, position: "relative" }} role="region" aria-label={t("canvas.label")}>
          <WorkflowCanvas
            graph={graph}
            nodes={nodes}
            edges={edges}
            onEdit={editGraph}
            onSelect={select}
            onMeasured={measured}
            onDropKind={addKind}
            onConnected={(edgeId) => select({ nodes: [], edges: [edgeId] })}
          />
        </Box>
        <Box sx={{ ...sideColumn, borderInlineStart: { md: 1 } }}>
          {panelSteps >= 1 && (
            <Tabs
              value={tab}
              onChange={(_, next: PanelTab) => setTab(next)}
              variant="scrollable"
              sx={{ "& .MuiTab-root": { minWidth: 0, px: 1.5, textTransform: "none" } }}
              aria-label={t("panel.tabs")}
            >
              <Tab value="selection" label={t("panel.selection")} />
              <Tab value="workflow" label={t("panel.workflow")} />
              <Tab
                value="issues"
                label={
                  <Stack direction="row" spacing={0.75} sx={{ alignItems: "center" }}>
                    <span>{t("panel.issues")}</span>
                    <Box
                      component="span"
                      sx={{
                        px: 0.75,
                        borderRadius: 5,
                        fontSize: 12,
                        lineHeight: "18px",
                        bgcolor: issues.length ? "error.main" : "success.main",
                        color: issues.length ? "error.contrastText" : "success.contrastText",
                      }}
                    >
                      {issues.length}
                    </Box>
                  </Stack>
                }
              />
              <Tab value="test" label={t("panel.test")} />
            </Tabs>
          )}
          <Box sx={{ p: 2, overflowY: "auto", flex: 1, minHeight: 0 }}>
            {tab === "selection" &&
              (selectedNode ? (
                <NodePanel
                  key={selectedNode.id}
                  node={selectedNode}
                  graph={graph}
                  variables={draft.variables}
                  issues={marked.nodes.get(selectedNode.id) ?? []}
                  onChange={(node, field) => editGraph((g) => replaceNode(g, node), `node:${node.id}:${field}`)}
                  onConnect={(target) => {
                    const result = connect(graph, selectedNode.id, target);
                    if (result.edgeId) editGraph(() => result.graph);
                  }}
                  onDelete={() => {
                    editGraph((g) => removeElements(g, [selectedNode.id], []));
                    setSelection(NOTHING_SELECTED);
                  }}
                />
              ) : selectedEdge ? (
                <EdgePanel
                  key={selectedEdge.id}
                  edge={selectedEdge}
                  graph={graph}
                  variables={draft.variables}
                  issues={marked.edges.get(selectedEdge.id) ?? []}
                  onChange={(edge, field) => editGraph((g) => replaceEdge(g, edge), `edge:${edge.id}:${field}`)}
                  onDelete={() => {
                    editGraph((g) => removeElements(g, [], [selectedEdge.id]));
                    setSelection(NOTHING_SELECTED);
                  }}
                />
              ) : (
                <Typography color="text.secondary">{t("panel.nothingSelected")}</Typography>
              ))}
            {tab === "workflow" && panelSteps >= 2 && (
              <SettingsPanel
                draft={draft}
                onChange={(change, field) => edit((d) => ({ ...d, ...change }), `settings:${field}`)}
              />
            )}
            {tab === "issues" && <IssuesList issues={issues} text={textOf} onShow={showIssue} onDeclare={declare} />}
            {/* Once started, the test stays while other tabs are looked at: its step stays lit on the canvas. */}
            {testOpened && (
              <Box hidden={tab !== "test"}>
                <Suspense fallback={null}>
                  <TestPanel
                    workflowId={workflow.id}
                    graph={graph}
                    attachedAssistantIds={workflow.assistant_ids}
                    saveFirst={saveFirst}
                    onProgress={setProgress}
                  />
                </Suspense>
              </Box>
            )}
          </Box>
        </Box>
      </Paper>
      <VersionsDialog
        workflowId={workflow.id}
        open={versionsOpen}
        onClose={() => setVersionsOpen(false)}
        onLoad={(version) => {
          edit((d) => ({
            ...d,
            graph: version.graph,
            variables: version.variables,
            global_prompt: version.global_prompt,
          }));
          setVersionsOpen(false);
          setSelection(NOTHING_SELECTED);
          enqueueSnackbar(t("versions.loaded", { n: version.version }), { variant: "success" });
        }}
      />
      <PublishIssuesDialog
        refused={refused}
        text={textOf}
        onClose={() => setRefused(null)}
        onShowIssues={() => {
          setRefused(null);
          setTab("issues");
        }}
      />
      <UnsavedChangesDialog blocker={blocker} />
    </Stack>
  );
}
