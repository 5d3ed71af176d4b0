import AddIcon from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import FormControlLabel from "@mui/material/FormControlLabel";
import Grid from "@mui/material/Grid";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Radio from "@mui/material/Radio";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { Assistant, CreateSquadBody, Squad, SquadContextMode } from "@parley/contract";
import { SquadContextMode as Modes } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/form-dialog.tsx";
import {
  bodyOf,
  draftOf,
  type HandoffDraft,
  type MemberDraft,
  memberNameOf,
  rowKey,
  type SquadDraft,
} from "./squad-draft.ts";

const LTR = { htmlInput: { dir: "ltr" } } as const;

/**
 * Create or edit a squad: its members (an assistant each, the name its hand-off tool uses, and the
 * one that answers first), the hand-offs between them as a list of edges, what the next member is
 * told, the bridge line and the limit per call.
 */
export function SquadDialog(props: {
  squad: Squad | null;
  assistants: Assistant[];
  onClose: () => void;
  onSubmit: (body: CreateSquadBody) => Promise<void>;
}) {
  const { t } = useTranslation(["squads", "translation"], { nsMode: "fallback" });
  const [draft, setDraft] = useState<SquadDraft>(() => draftOf(props.squad));
  const [busy, setBusy] = useState(false);
  const set = (changes: Partial<SquadDraft>) => setDraft((d) => ({ ...d, ...changes }));
  const setMember = (key: number, changes: Partial<MemberDraft>) =>
    set({ members: draft.members.map((m) => (m.key === key ? { ...m, ...changes } : m)) });
  const setHandoff = (key: number, changes: Partial<HandoffDraft>) =>
    set({ handoffs: draft.handoffs.map((h) => (h.key === key ? { ...h, ...changes } : h)) });
  const names = draft.members.map((m) => m.name).filter(Boolean);
  const modeLabel = (mode: SquadContextMode) => t(`modes.${mode}`);

  const chooseAssistant = (member: MemberDraft, id: string) => {
    const assistant = props.assistants.find((a) => a.id === id);
    setMember(member.key, { assistant_id: id, name: member.name || memberNameOf(assistant?.name ?? "") });
  };
  const addMember = () => {
    const key = rowKey();
    set({ members: [...draft.members, { key, assistant_id: "", name: "" }], firstKey: draft.firstKey ?? key });
  };
  const removeMember = (key: number) => {
    const members = draft.members.filter((m) => m.key !== key);
    set({ members, firstKey: draft.firstKey === key ? (members[0]?.key ?? null) : draft.firstKey });
  };
  const addHandoff = () =>
    set({
      handoffs: [
        ...draft.handoffs,
        { key: rowKey(), from: names[0] ?? "", to: names[1] ?? "", description: "", mode: "squad" },
      ],
    });

  return (
    <FormDialog
      title={props.squad ? t("editTitle") : t("createTitle")}
      maxWidth="md"
      busy={busy}
      onClose={props.onClose}
      onSubmit={async (event) => {
        event.preventDefault();
        const body = bodyOf(draft);
        setBusy(true);
        try {
          await props.onSubmit(body);
        } finally {
          setBusy(false);
        }
      }}
    >
      <Grid size={12}>
        <TextField
          fullWidth
          required
          label={t("fields.name")}
          value={draft.name}
          onChange={(e) => set({ name: e.target.value })}
        />
      </Grid>
      <Grid size={12}>
        <TextField
          fullWidth
          multiline
          minRows={2}
          label={t("fields.description")}
          value={draft.description}
          onChange={(e) => set({ description: e.target.value })}
        />
      </Grid>

      <Grid size={12}>
        <Typography component="h3" variant="subtitle1">
          {t("members.title")}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t("members.hint")}
        </Typography>
      </Grid>
      {draft.members.map((member, index) => (
        <Grid key={member.key} size={12}>
          <Box
            role="group"
            aria-label={t("members.row", { n: index + 1 })}
            sx={{ display: "flex", flexWrap: "wrap", gap: 1, alignItems: "center" }}
          >
            <TextField
              select
              required
              sx={{ flex: "1 1 200px" }}
              label={t("fields.assistant")}
              value={member.assistant_id}
              onChange={(e) => chooseAssistant(member, e.target.value)}
            >
              {props.assistants.map((a) => (
                <MenuItem key={a.id} value={a.id}>
                  {a.name}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              required
              sx={{ flex: "1 1 160px" }}
              label={t("fields.memberName")}
              helperText={member.name ? t("members.tool", { name: member.name }) : undefined}
              value={member.name}
              onChange={(e) => setMember(member.key, { name: e.target.value })}
              slotProps={LTR}
            />
            <FormControlLabel
              control={
                <Radio
                  checked={draft.firstKey === member.key}
                  onChange={() => set({ firstKey: member.key })}
                  name="first-member"
                />
              }
              label={t("members.first")}
            />
            <IconButton aria-label={t("members.remove", { n: index + 1 })} onClick={() => removeMember(member.key)}>
              <DeleteOutline />
            </IconButton>
          </Box>
        </Grid>
      ))}
      <Grid size={12}>
        <Button startIcon={<AddIcon />} onClick={addMember} disabled={props.assistants.length === 0}>
          {t("members.add")}
        </Button>
        {props.assistants.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t("members.noAssistants")}
          </Typography>
        )}
      </Grid>

      <Grid size={12}>
        <Typography component="h3" variant="subtitle1">
          {t("handoffs.title")}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t("handoffs.hint")}
        </Typography>
      </Grid>
      {draft.handoffs.map((handoff, index) => (
        <Grid key={handoff.key} size={12}>
          <Box
            role="group"
            aria-label={t("handoffs.row", { n: index + 1 })}
            sx={{ display: "flex", flexWrap: "wrap", gap: 1, alignItems: "flex-start" }}
          >
            {(["from", "to"] as const).map((end) => (
              <TextField
                key={end}
                select
                required
                sx={{ flex: "1 1 140px" }}
                label={t(`fields.${end}`)}
                value={handoff[end]}
                onChange={(e) => setHandoff(handoff.key, { [end]: e.target.value })}
              >
                {names.map((name) => (
                  <MenuItem key={name} value={name} dir="ltr">
                    {name}
                  </MenuItem>
                ))}
              </TextField>
            ))}
            <TextField
              select
              sx={{ flex: "1 1 160px" }}
              label={t("fields.carry")}
              value={handoff.mode}
              onChange={(e) => setHandoff(handoff.key, { mode: e.target.value as HandoffDraft["mode"] })}
            >
              <MenuItem value="squad">{t("modes.squad")}</MenuItem>
              {Modes.options.map((mode) => (
                <MenuItem key={mode} value={mode}>
                  {modeLabel(mode)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              required
              sx={{ flex: "2 1 260px" }}
              label={t("fields.when")}
              value={handoff.description}
              onChange={(e) => setHandoff(handoff.key, { description: e.target.value })}
            />
            <IconButton
              aria-label={t("handoffs.remove", { n: index + 1 })}
              onClick={() => set({ handoffs: draft.handoffs.filter((h) => h.key !== handoff.key) })}
            >
              <DeleteOutline />
            </IconButton>
          </Box>
        </Grid>
      ))}
      <Grid size={12}>
        <Button startIcon={<AddIcon />} onClick={addHandoff} disabled={names.length < 2}>
          {t("handoffs.add")}
        </Button>
      </Grid>

      <Grid size={{ xs: 12, sm: 6 }}>
        <TextField
          select
          fullWidth
          label={t("fields.mode")}
          helperText={t(`modeHelp.${draft.mode}`)}
          value={draft.mode}
          onChange={(e) => set({ mode: e.target.value as SquadContextMode })}
        >
          {Modes.options.map((mode) => (
            <MenuItem key={mode} value={mode}>
              {modeLabel(mode)}
            </MenuItem>
          ))}
        </TextField>
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <TextField
          fullWidth
          label={t("fields.variables")}
          helperText={t("variablesHelp")}
          value={draft.variables}
          onChange={(e) => set({ variables: e.target.value })}
          slotProps={LTR}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 8 }}>
        <TextField
          fullWidth
          label={t("fields.bridgeLine")}
          helperText={t("bridgeHelp")}
          value={draft.bridgeLine}
          onChange={(e) => set({ bridgeLine: e.target.value })}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <TextField
          fullWidth
          type="number"
          label={t("fields.maxHandoffs")}
          value={draft.maxHandoffs}
          onChange={(e) => set({ maxHandoffs: e.target.value })}
          slotProps={{ htmlInput: { min: 1, max: 20 } }}
        />
      </Grid>
    </FormDialog>
  );
}
