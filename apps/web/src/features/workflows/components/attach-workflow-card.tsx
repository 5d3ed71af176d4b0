import AddIcon from "@mui/icons-material/Add";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Divider from "@mui/material/Divider";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { Assistant } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { useCreateWorkflow, useWorkflows } from "../api/workflows-api.ts";
import { CreateWorkflowDialog } from "./create-workflow-dialog.tsx";

/** An assistant without a workflow: attach one of the workspace's, or create its own. */
export function AttachWorkflowCard(props: {
  assistant: Assistant;
  onAttach: (workflowId: string) => Promise<void>;
  onCreated: () => Promise<void>;
}) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const workflows = useWorkflows({ page: 1, items_per_page: 100, sort_by: "name", sort_order: "asc" });
  const create = useCreateWorkflow();
  const [chosen, setChosen] = useState("");
  const [creating, setCreating] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const list = workflows.data?.data ?? [];

  const attach = async () => {
    setFailure(null);
    setBusy(true);
    try {
      await props.onAttach(chosen);
    } catch (error) {
      setFailure(errorText(error, t("common.failed")));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper variant="outlined" sx={{ p: 3, maxWidth: 640 }}>
      <Stack spacing={2}>
        <Typography>{t("assistant.none", { name: props.assistant.name })}</Typography>
        {failure && <Alert severity="error">{failure}</Alert>}
        {workflows.error && <Alert severity="error">{errorText(workflows.error, t("loadFailed"))}</Alert>}
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t("assistant.attachTitle")}
        </Typography>
        <Stack direction={{ xs: "column", sm: "row" }} spacing={1}>
          <TextField
            select
            size="small"
            label={t("assistant.choose")}
            value={chosen}
            onChange={(e) => setChosen(e.target.value)}
            sx={{ flex: 1 }}
            disabled={list.length === 0}
            helperText={
              !workflows.isPending && list.length === 0 ? t("assistant.noWorkflows") : t("assistant.publishedOnly")
            }
          >
            {list.map((workflow) => (
              <MenuItem key={workflow.id} value={workflow.id}>
                {workflow.name}
              </MenuItem>
            ))}
          </TextField>
          <div>
            <Button variant="contained" disabled={!chosen || busy} onClick={() => void attach()}>
              {t("assistant.attach")}
            </Button>
          </div>
        </Stack>
        <Divider>{t("assistant.or")}</Divider>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          {t("assistant.ownTitle")}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t("assistant.ownHint")}
        </Typography>
        <div>
          <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setCreating(true)}>
            {t("assistant.createOwn")}
          </Button>
        </div>
      </Stack>
      {creating && (
        <CreateWorkflowDialog
          defaultName={t("assistant.ownName", { name: props.assistant.name })}
          onClose={() => setCreating(false)}
          onCreate={async (body) => {
            await create.mutateAsync({ ...body, assistant_id: props.assistant.id });
            setCreating(false);
            await props.onCreated();
          }}
        />
      )}
    </Paper>
  );
}
