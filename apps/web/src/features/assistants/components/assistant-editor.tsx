import { zodResolver } from "@hookform/resolvers/zod";
import SaveIcon from "@mui/icons-material/Save";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Grid from "@mui/material/Grid";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import type { Theme } from "@mui/material/styles";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import type { Assistant } from "@parley/contract";
import { lazy, type ReactNode, Suspense, useEffect, useRef } from "react";
import { type FieldErrors, useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useUpdateAssistant } from "../../../api/assistants.ts";
import { ApiError } from "../../../lib/api-error.ts";
import { applyFieldErrors } from "../../../lib/field-errors.ts";
import { useSnackbar } from "../../../lib/snackbar.ts";
import { useUnsavedChangesGuard } from "../hooks/use-unsaved-changes-guard.ts";
import {
  AssistantForm,
  type AssistantFormInput,
  type AssistantFormValues,
  type EditorTab,
  isFormField,
  tabOfField,
  toFormValues,
  toUpdateBody,
  visibleTabs,
} from "../utils/assistant-form.ts";
import { AnalysisTab } from "./analysis-tab.tsx";
import { AssistantId } from "./assistant-id.tsx";
import { CostPanel } from "./cost-panel.tsx";
import type { EditorForm } from "./editor-types.ts";
import { FunctionsTab, KnowledgeTab, ToolServersTab } from "./linked-tabs.tsx";
import { ModelTab } from "./model-tab.tsx";
import { MoreSettingsTab } from "./more-settings-tab.tsx";
import { RealtimeCostPanel } from "./realtime-cost-panel.tsx";
import { ReliabilityTab } from "./reliability-tab.tsx";
import { TranscriberTab } from "./transcriber-tab.tsx";
import { TransferTab } from "./transfer-tab.tsx";
import { UnsavedChangesDialog } from "./unsaved-changes-dialog.tsx";
import { VoiceTab } from "./voice-tab.tsx";

// The versions and experiments load when their tab is first opened: most visits edit settings.
const VersionsTab = lazy(() => import("./versions-tab.tsx").then((module) => ({ default: module.VersionsTab })));

function VersionsTabLoading() {
  const { t } = useTranslation("assistants");
  return (
    <Box role="status" aria-label={t("loading")} sx={{ display: "grid", placeItems: "center", py: 4 }}>
      <CircularProgress />
    </Box>
  );
}

/** The tabs that edit the assistant's own settings, each given the form. */
const FORM_TABS = {
  model: ModelTab,
  transcriber: TranscriberTab,
  voice: VoiceTab,
  transfer: TransferTab,
  analysis: AnalysisTab,
  reliability: ReliabilityTab,
  more: MoreSettingsTab,
} satisfies Partial<Record<EditorTab, (props: { form: EditorForm }) => ReactNode>>;

function TabContent({ tab, form, assistantId }: { tab: EditorTab; form: EditorForm; assistantId: string }) {
  switch (tab) {
    case "functions":
      // The knowledge documents sit with the functions: both are tools the model calls during a call.
      return (
        <Stack spacing={3}>
          <FunctionsTab assistantId={assistantId} />
          <KnowledgeTab assistantId={assistantId} />
        </Stack>
      );
    case "tools":
      return <ToolServersTab assistantId={assistantId} />;
    case "versions":
      return (
        <Suspense fallback={<VersionsTabLoading />}>
          <VersionsTab assistantId={assistantId} form={form} />
        </Suspense>
      );
    default: {
      const FormTab = FORM_TABS[tab];
      return <FormTab form={form} />;
    }
  }
}

/**
 * Edits one assistant. Mount it with `key={assistant.id}`: switching to another assistant then
 * starts from a fresh form, so no editing state carries over (spec §4).
 */
export function AssistantEditor(props: {
  assistant: Assistant;
  /** The cost panel beside the tabs (when the editor is wide enough for both), else below them. */
  costBeside?: boolean;
  /** Actions shown beside Save in the header; the live "Test call" button belongs here. */
  headerActions?: ReactNode;
}) {
  const { t } = useTranslation("assistants");
  const { enqueueSnackbar } = useSnackbar();
  const update = useUpdateAssistant(props.assistant.id);
  const [params, setParams] = useSearchParams();
  const requested = params.get("tab");
  const wrapTabs = useMediaQuery((theme: Theme) => theme.breakpoints.up("sm"));
  const setTab = (next: EditorTab) => setParams({ tab: next }, { replace: true });
  const form = useForm<AssistantFormInput, unknown, AssistantFormValues>({
    resolver: zodResolver(AssistantForm),
    defaultValues: toFormValues(props.assistant),
    mode: "onTouched",
  });
  const realtime = useWatch({ control: form.control, name: "engine_mode" }) === "realtime";
  const tabs = visibleTabs(realtime);
  const tab: EditorTab = tabs.find((candidate) => candidate === requested) ?? "model";
  const { isDirty, isSubmitting } = form.formState;
  const blocker = useUnsavedChangesGuard(isDirty && !isSubmitting);
  // A version published elsewhere (a rollback, an experiment's winner) becomes what the form shows,
  // unless the form holds edits of its own: those stay, and Save or Publish decides.
  // (The query keeps the same object while the assistant is unchanged, so a refetch resets nothing.)
  const published = props.assistant;
  const shown = useRef(published);
  useEffect(() => {
    if (shown.current === published) return;
    shown.current = published;
    if (!form.formState.isDirty) form.reset(toFormValues(published));
  }, [published, form]);

  const save = async (values: AssistantFormValues) => {
    try {
      const saved = await update.mutateAsync(toUpdateBody(values));
      form.reset(toFormValues(saved));
      enqueueSnackbar(t("notices.updated"), { variant: "success" });
    } catch (error) {
      // A 422's field errors go beside their fields (on the tab that shows the first); the toast says
      // what could not be placed, or that some settings need attention.
      const fields = error instanceof ApiError ? error.fieldErrors.map((e) => e.field) : [];
      const placed = fields.filter((field) => isFormField(form.getValues(), field));
      const unplaced = applyFieldErrors(error, form.setError, placed);
      if (placed[0]) setTab(tabOfField(placed[0]));
      enqueueSnackbar(unplaced || t(placed.length > 0 ? "notices.fixErrors" : "notices.failed"), { variant: "error" });
    }
  };
  const showProblems = (errors: FieldErrors<AssistantFormInput>) => {
    const first = Object.keys(errors)[0];
    if (first) setTab(tabOfField(first));
    enqueueSnackbar(t("notices.fixErrors"), { variant: "error" });
  };

  return (
    <Box component="form" noValidate onSubmit={form.handleSubmit(save, showProblems)} sx={{ minWidth: 0 }}>
      <Stack
        direction={{ xs: "column", sm: "row" }}
        spacing={2}
        sx={{ mb: 2, alignItems: { sm: "center" }, justifyContent: "space-between" }}
      >
        <Stack spacing={0.5} sx={{ minWidth: 0 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: "center", minWidth: 0 }}>
            <Typography variant="h4" component="h1" dir="auto" sx={{ fontWeight: 700, overflowWrap: "anywhere" }}>
              {props.assistant.name}
            </Typography>
            {isDirty && <Chip size="small" color="warning" label={t("editor.unsaved")} />}
          </Stack>
          <AssistantId id={props.assistant.id} />
        </Stack>
        <Stack direction="row" spacing={1} data-slot="assistant-header-actions">
          {props.headerActions}
          <Button type="submit" variant="contained" startIcon={<SaveIcon />} disabled={!isDirty || isSubmitting}>
            {isSubmitting ? t("editor.saving") : t("editor.save")}
          </Button>
        </Stack>
      </Stack>
      <Grid container spacing={3}>
        <Grid size={props.costBeside ? 8 : 12}>
          <Paper variant="outlined">
            <Tabs
              value={tab}
              onChange={(_, next: EditorTab) => setTab(next)}
              // Ten tabs do not fit one row beside the cost panel: from tablet width they wrap onto a
              // second row (the selected one underlined in place), on a phone they scroll.
              variant={wrapTabs ? "standard" : "scrollable"}
              allowScrollButtonsMobile
              aria-label={t("editor.tabsLabel")}
              slotProps={wrapTabs ? { indicator: { sx: { display: "none" } } } : undefined}
              sx={{
                borderBottom: 1,
                borderColor: "divider",
                ...(wrapTabs && {
                  "& .MuiTabs-flexContainer": { flexWrap: "wrap" },
                  "& .MuiTab-root.Mui-selected": {
                    boxShadow: (theme: Theme) => `inset 0 -2px 0 ${theme.palette.primary.main}`,
                  },
                }),
              }}
            >
              {tabs.map((key) => (
                <Tab
                  key={key}
                  value={key}
                  label={t(`editor.tabs.${key}`)}
                  id={`assistant-tab-${key}`}
                  aria-controls={`assistant-panel-${key}`}
                  // MUI's 90 px minimum and 16 px sides would leave a row half empty.
                  sx={{ minWidth: 0, px: 1.5 }}
                />
              ))}
            </Tabs>
            <Box role="tabpanel" id={`assistant-panel-${tab}`} aria-labelledby={`assistant-tab-${tab}`} sx={{ p: 3 }}>
              <TabContent tab={tab} form={form} assistantId={props.assistant.id} />
            </Box>
          </Paper>
        </Grid>
        <Grid size={props.costBeside ? 4 : 12}>
          {realtime ? <RealtimeCostPanel control={form.control} /> : <CostPanel control={form.control} />}
        </Grid>
      </Grid>
      <UnsavedChangesDialog blocker={blocker} />
    </Box>
  );
}
