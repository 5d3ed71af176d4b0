import RestartAlt from "@mui/icons-material/RestartAlt";
import Send from "@mui/icons-material/Send";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { WorkflowGraph, WorkflowTestAction, WorkflowTestMessage, WorkflowTestState } from "@parley/contract";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAssistants } from "../../../api/assistants.ts";
import { errorText } from "../../../components/error-text.ts";
import { useTestTurn } from "../api/workflows-api.ts";

type Line =
  | { kind: "message"; role: WorkflowTestMessage["role"]; content: string }
  | { kind: "transition"; to: string; reason: string };

export interface TestProgress {
  nodeId: string | null;
  /** The edges walked so far, as source → target pairs. */
  walked: readonly { from: string; to: string }[];
}

/**
 * The text test: a conversation typed against the assistant's model that runs the saved draft one
 * turn at a time. The server keeps nothing between turns; the state each answer carries is sent back
 * with the next message. The active node is shown here and lit on the canvas.
 */
export function TestPanel(props: {
  workflowId: string;
  graph: WorkflowGraph;
  attachedAssistantIds: readonly string[];
  /** Unsaved edits are saved first: the server tests the saved draft. Resolves false when saving failed. */
  saveFirst: () => Promise<boolean>;
  onProgress: (progress: TestProgress) => void;
}) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const assistants = useAssistants();
  const turn = useTestTurn(props.workflowId);
  const [assistantId, setAssistantId] = useState("");
  const [lines, setLines] = useState<Line[]>([]);
  const [messages, setMessages] = useState<WorkflowTestMessage[]>([]);
  const [state, setState] = useState<WorkflowTestState | null>(null);
  const [ended, setEnded] = useState<WorkflowTestAction | null>(null);
  const [draft, setDraft] = useState("");
  const [walked, setWalked] = useState<{ from: string; to: string }[]>([]);
  const log = useRef<HTMLDivElement>(null);
  const { onProgress } = props;

  const list = assistants.data ?? [];
  const chosen = assistantId || list.find((a) => props.attachedAssistantIds.includes(a.id))?.id || list[0]?.id || "";
  const nodeName = (id: string) => {
    const node = props.graph.nodes.find((n) => n.id === id);
    return node ? node.data.name || t(`kinds.${node.type}`) : id;
  };

  useEffect(() => {
    onProgress({ nodeId: state?.node_id ?? null, walked });
  }, [state, walked, onProgress]);
  // Each new line scrolls the log to the bottom.
  const shown = lines.length;
  useEffect(() => {
    if (shown) log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [shown]);
  // Leaving the panel clears the canvas's highlight.
  useEffect(() => () => onProgress({ nodeId: null, walked: [] }), [onProgress]);

  const run = async (sent: WorkflowTestMessage[], current: WorkflowTestState | null) => {
    if (!(await props.saveFirst())) return;
    const result = await turn.mutateAsync({ assistant_id: chosen || undefined, messages: sent, state: current });
    const added: Line[] = result.transitions.map((step) => ({ kind: "transition", to: step.to, reason: step.reason }));
    const replies: WorkflowTestMessage[] = result.reply ? [{ role: "assistant", content: result.reply }] : [];
    setLines((before) => [...before, ...added, ...replies.map((m) => ({ kind: "message" as const, ...m }))]);
    setMessages([...sent, ...replies]);
    setWalked((before) => [...before, ...result.transitions.map(({ from, to }) => ({ from, to }))]);
    setState(result.state);
    if (result.ended) setEnded(result.action ?? { type: "end", message: "" });
  };

  const start = () => {
    setLines([]);
    setWalked([]);
    setEnded(null);
    void run([], null).catch(() => undefined);
  };
  const reset = () => {
    turn.reset();
    setLines([]);
    setMessages([]);
    setState(null);
    setWalked([]);
    setEnded(null);
  };
  const send = (event: FormEvent) => {
    event.preventDefault();
    const text = draft.trim();
    if (!text || !state || turn.isPending) return;
    setDraft("");
    setLines((before) => [...before, { kind: "message", role: "user", content: text }]);
    void run([...messages, { role: "user", content: text }], state).catch(() => undefined);
  };

  return (
    <Stack spacing={2} component="section" aria-label={t("test.title")} sx={{ minHeight: 0 }}>
      <Typography variant="body2" color="text.secondary">
        {t("test.hint")}
      </Typography>
      <TextField
        select
        size="small"
        label={t("test.assistant")}
        value={list.some((a) => a.id === chosen) ? chosen : ""}
        disabled={state !== null}
        helperText={!assistants.isPending && list.length === 0 ? t("test.noAssistants") : undefined}
        onChange={(e) => setAssistantId(e.target.value)}
      >
        {list.map((assistant) => (
          <MenuItem key={assistant.id} value={assistant.id}>
            {assistant.name}
          </MenuItem>
        ))}
      </TextField>
      <Stack direction="row" spacing={1}>
        <Button variant="contained" onClick={start} disabled={!chosen || turn.isPending || (state !== null && !ended)}>
          {state ? t("test.restart") : t("test.start")}
        </Button>
        <Button startIcon={<RestartAlt />} onClick={reset} disabled={state === null || turn.isPending}>
          {t("test.reset")}
        </Button>
      </Stack>
      {turn.error && <Alert severity="error">{errorText(turn.error, t("test.failed"))}</Alert>}
      {state && (
        <Stack direction="row" spacing={1} sx={{ alignItems: "center" }} aria-live="polite">
          <Typography variant="body2">{t("test.activeNode")}</Typography>
          <Chip size="small" color="success" label={nodeName(state.node_id)} data-testid="test-active-node" />
        </Stack>
      )}
      <Box
        ref={log}
        role="log"
        aria-label={t("test.conversation")}
        tabIndex={0}
        sx={{
          flex: 1,
          minHeight: 160,
          maxHeight: 360,
          overflowY: "auto",
          border: 1,
          borderColor: "divider",
          borderRadius: 1,
          p: 1,
        }}
      >
        {lines.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t("test.empty")}
          </Typography>
        )}
        {lines.map((line, index) =>
          line.kind === "transition" ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: the log only grows
            <Typography key={index} variant="caption" color="text.secondary" component="p" sx={{ my: 0.5 }}>
              {t("test.transition", { to: nodeName(line.to), reason: line.reason })}
            </Typography>
          ) : (
            <Box
              // biome-ignore lint/suspicious/noArrayIndexKey: the log only grows
              key={index}
              sx={{
                my: 0.5,
                ms: line.role === "user" ? 4 : 0,
                me: line.role === "user" ? 0 : 4,
                p: 1,
                borderRadius: 1,
                bgcolor: line.role === "user" ? "primary.main" : "action.hover",
                color: line.role === "user" ? "primary.contrastText" : "text.primary",
              }}
            >
              <Typography variant="caption" component="p" sx={{ fontWeight: 600 }}>
                {line.role === "user" ? t("test.you") : t("test.assistantSays")}
              </Typography>
              <Typography variant="body2" dir="auto">
                {line.content}
              </Typography>
            </Box>
          ),
        )}
        {turn.isPending && <CircularProgress size={18} aria-label={t("test.thinking")} sx={{ m: 1 }} />}
      </Box>
      {ended ? (
        <Alert severity="info" data-testid="test-ended">
          {ended.type === "transfer"
            ? t("test.endedTransfer", { destination: ended.destination })
            : ended.type === "handoff"
              ? t("test.endedHandoff", { member: ended.member })
              : t("test.ended")}
        </Alert>
      ) : (
        <Box component="form" onSubmit={send} sx={{ display: "flex", gap: 1 }}>
          <TextField
            size="small"
            fullWidth
            label={t("test.message")}
            value={draft}
            disabled={!state}
            onChange={(e) => setDraft(e.target.value)}
            slotProps={{ htmlInput: { dir: "auto" } }}
          />
          <IconButton
            type="submit"
            aria-label={t("test.send")}
            disabled={!state || !draft.trim() || turn.isPending}
            color="primary"
          >
            <Send sx={{ transform: (theme) => (theme.direction === "rtl" ? "scaleX(-1)" : undefined) }} />
          </IconButton>
        </Box>
      )}
      {state && Object.keys(state.variables).length > 0 && (
        <Box>
          <Typography variant="subtitle2" component="h3">
            {t("test.variables")}
          </Typography>
          <Table size="small" aria-label={t("test.variables")}>
            <TableBody>
              {Object.entries(state.variables).map(([name, value]) => (
                <TableRow key={name}>
                  <TableCell component="th" scope="row" dir="ltr">
                    {name}
                  </TableCell>
                  <TableCell dir="auto">{value === null ? t("test.notSet") : String(value)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
    </Stack>
  );
}
