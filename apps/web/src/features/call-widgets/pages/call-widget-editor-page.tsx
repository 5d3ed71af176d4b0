import { zodResolver } from "@hookform/resolvers/zod";
import ArrowBack from "@mui/icons-material/ArrowBack";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import SaveOutlined from "@mui/icons-material/SaveOutlined";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Grid from "@mui/material/Grid";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { CallWidget } from "@parley/contract";
import { type ReactNode, useRef, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate, useParams } from "react-router";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { ListSkeleton } from "../../../components/list-placeholders.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { API_BASE_URL } from "../../../config/env.ts";
import { paths } from "../../../config/paths.ts";
import { ApiError } from "../../../lib/api-error.ts";
import { applyFieldErrors } from "../../../lib/field-errors.ts";
import { useSnackbar } from "../../../lib/snackbar.ts";
import { useCallWidget, useDeleteCallWidget, useUpdateCallWidget } from "../api/call-widgets-api.ts";
import { AppearanceFields } from "../components/appearance-fields.tsx";
import { WidgetPreview } from "../components/widget-preview.tsx";
import { AccessFields, GeneralFields, Section } from "../components/widget-settings.tsx";
import { WidgetSnippet } from "../components/widget-snippet.tsx";
import { firstMessage } from "../forms/first-message.ts";
import {
  formValues,
  placesOf,
  previewAppearance,
  scriptUrlOf,
  toUpdate,
  WidgetEditorForm,
  type WidgetEditorInput,
  type WidgetEditorOutput,
} from "../forms/widget-form.ts";
import { useRevealFirstProblem } from "../hooks/use-reveal-first-problem.ts";

/** /call-widgets/{id}: a widget's settings beside its live preview and the snippet to paste. */
export default function CallWidgetEditorPage() {
  const { widgetId = "" } = useParams();
  const { t } = useTranslation(["call-widgets", "translation"], { nsMode: "fallback" });
  const widget = useCallWidget(widgetId);
  const back = (
    <Button
      component={RouterLink}
      to={paths.callWidgets}
      startIcon={<ArrowBack sx={{ "[dir=rtl] &": { transform: "scaleX(-1)" } }} />}
    >
      {t("back")}
    </Button>
  );
  if (widget.isPending) {
    return (
      <>
        <PageHeader title={t("nav.callWidgets")} actions={back} />
        <ListSkeleton label={t("common.loading")} rows={3} height={160} />
      </>
    );
  }
  if (widget.error) {
    const missing = widget.error instanceof ApiError && widget.error.status === 404;
    return (
      <>
        <PageHeader title={t("nav.callWidgets")} actions={back} />
        {missing ? (
          <Paper role="alert" sx={{ p: 4, textAlign: "center" }}>
            <Typography variant="h6" component="h2">
              {t("notFound")}
            </Typography>
            <Typography color="text.secondary">{t("notFoundHint")}</Typography>
          </Paper>
        ) : (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void widget.refetch()}>
                {t("retry")}
              </Button>
            }
          >
            {errorText(widget.error, t("loadFailed"))}
          </Alert>
        )}
      </>
    );
  }
  // Keyed by the saved state, so a save (or a key rotation) restarts the form from what the server holds.
  return <Editor key={widget.data.updated_at} widget={widget.data} back={back} />;
}

function Editor({ widget, back }: { widget: CallWidget; back: ReactNode }) {
  const { t } = useTranslation(["call-widgets", "translation"], { nsMode: "fallback" });
  const { enqueueSnackbar } = useSnackbar();
  const navigate = useNavigate();
  const update = useUpdateCallWidget(widget.id);
  const remove = useDeleteCallWidget();
  const [deleting, setDeleting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<WidgetEditorInput, unknown, WidgetEditorOutput>({
    resolver: zodResolver(WidgetEditorForm),
    defaultValues: formValues(widget),
  });
  const values = useWatch({ control: form.control }) as WidgetEditorInput;
  const scriptUrl = scriptUrlOf(API_BASE_URL, window.location.href);

  const formRef = useRef<HTMLFormElement>(null);
  useRevealFirstProblem(formRef, form.formState.submitCount, Object.keys(form.formState.errors).length > 0);

  // A refused save always says so where the eye is (a toast), and the first field in error is
  // scrolled to and focused (useRevealFirstProblem): the sites are below the fold on most screens.
  const save = form.handleSubmit(
    async (output) => {
      setFailure(null);
      try {
        await update.mutateAsync(toUpdate(output));
        enqueueSnackbar(t("saved"), { variant: "success" });
      } catch (error) {
        const fields = error instanceof ApiError ? error.fieldErrors.map((e) => e.field) : [];
        const unplaced = applyFieldErrors(error, form.setError, [], placesOf(fields));
        setFailure(unplaced ?? null);
        enqueueSnackbar(t("notSaved", { reason: errorText(error, t("common.failed")) }), { variant: "error" });
      }
    },
    (errors) =>
      enqueueSnackbar(t("notSaved", { reason: firstMessage(errors) ?? t("fixFields") }), { variant: "error" }),
  );
  const confirmDelete = () => {
    setDeleting(false);
    remove.mutate(widget.id, {
      onSuccess: () => {
        enqueueSnackbar(t("deleted"), { variant: "success" });
        navigate(paths.callWidgets, { replace: true });
      },
      onError: (error) => enqueueSnackbar(errorText(error, t("common.failed")), { variant: "error" }),
    });
  };

  return (
    <form ref={formRef} onSubmit={(event) => void save(event)} noValidate>
      <PageHeader
        title={widget.name}
        subtitle={t("editorSubtitle")}
        actions={
          <>
            {back}
            <Button color="error" startIcon={<DeleteOutline />} onClick={() => setDeleting(true)}>
              {t("delete")}
            </Button>
            <Button
              type="submit"
              variant="contained"
              startIcon={<SaveOutlined />}
              disabled={form.formState.isSubmitting || !form.formState.isDirty}
            >
              {t("save")}
            </Button>
          </>
        }
      />
      {failure && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      )}
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 7 }}>
          <Stack spacing={3}>
            <Section title={t("generalTitle")}>
              <GeneralFields control={form.control} />
            </Section>
            <Section title={t("appearanceTitle")}>
              <AppearanceFields control={form.control} customBackground={Boolean(values.custom_background)} />
            </Section>
            <Section title={t("accessTitle")} hint={t("accessHint")}>
              <AccessFields control={form.control} />
            </Section>
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, lg: 5 }}>
          <Stack spacing={3}>
            <Section title={t("previewTitle")} hint={t("previewHint")}>
              <WidgetPreview
                scriptUrl={scriptUrl}
                publicKey={widget.public_key}
                appearance={previewAppearance(values, widget.appearance)}
              />
            </Section>
            <WidgetSnippet widgetId={widget.id} scriptUrl={scriptUrl} publicKey={widget.public_key} />
          </Stack>
        </Grid>
      </Grid>
      <ConfirmDialog
        open={deleting}
        title={t("deleteTitle")}
        text={t("deleteText", { name: widget.name })}
        confirmLabel={t("delete")}
        onClose={() => setDeleting(false)}
        onConfirm={confirmDelete}
      />
    </form>
  );
}
