import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardActionArea from "@mui/material/CardActionArea";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Grid from "@mui/material/Grid";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { AssistantFields, type AssistantTemplate } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { useTemplates } from "../api/templates-api.ts";

/** Pick a template, name the assistant, and create it with the template's whole configuration. */
export function TemplateGalleryDialog(props: {
  open: boolean;
  onClose: () => void;
  onCreate: (template: AssistantTemplate, name: string) => Promise<void>;
}) {
  const { t } = useTranslation("assistants");
  const templates = useTemplates(props.open);
  const [selected, setSelected] = useState<AssistantTemplate | null>(null);
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  // The contract's own rule for a name, checked before anything is sent.
  const checked = AssistantFields.shape.name.safeParse(name);
  const nameProblem = checked.success
    ? null
    : name.trim()
      ? (checked.error.issues[0]?.message ?? t("templates.nameRequired"))
      : t("templates.nameRequired");
  const choose = (template: AssistantTemplate) => {
    setSelected(template);
    setName(template.name);
  };
  const create = async () => {
    if (!selected || !checked.success) return;
    setBusy(true);
    try {
      await props.onCreate(selected, checked.data);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      fullWidth
      maxWidth="md"
      aria-labelledby="template-title"
      slotProps={{ transition: { onExited: () => setSelected(null) } }}
    >
      <DialogTitle id="template-title">{t("templates.title")}</DialogTitle>
      <DialogContent>
        {templates.isPending && <CircularProgress aria-label={t("loading")} />}
        {templates.isError && (
          <Typography color="error">{errorText(templates.error, t("templates.loadFailed"))}</Typography>
        )}
        {templates.data?.length === 0 && <Typography color="text.secondary">{t("templates.empty")}</Typography>}
        <Grid container spacing={2} role="list" aria-label={t("templates.listLabel")}>
          {templates.data?.map((template) => {
            const isSelected = selected?.id === template.id;
            return (
              <Grid key={template.id} size={{ xs: 12, sm: 6, md: 4 }} role="listitem">
                <Card
                  variant="outlined"
                  sx={{
                    height: "100%",
                    borderColor: isSelected ? "primary.main" : undefined,
                    borderWidth: isSelected ? 2 : 1,
                  }}
                >
                  <CardActionArea
                    onClick={() => choose(template)}
                    aria-pressed={isSelected}
                    sx={{ height: "100%", alignItems: "flex-start" }}
                  >
                    <CardContent>
                      <Chip size="small" label={template.category} sx={{ mb: 1 }} />
                      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                        {template.name}
                      </Typography>
                      <Typography variant="body2" color="text.secondary">
                        {template.description}
                      </Typography>
                    </CardContent>
                  </CardActionArea>
                </Card>
              </Grid>
            );
          })}
        </Grid>
        {selected && (
          <TextField
            label={t("templates.name")}
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            fullWidth
            sx={{ mt: 3 }}
            error={nameProblem !== null}
            helperText={nameProblem ?? t("templates.nameHelp", { template: selected.name })}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{t("cancel")}</Button>
        <Button variant="contained" onClick={() => void create()} disabled={!selected || nameProblem !== null || busy}>
          {t("templates.create")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
