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
import type { AssistantTemplate } from "@parley/contract";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { templatesQuery } from "../api/templates-api.ts";

/** Pick a template, name the assistant, and create it with the template's whole configuration. */
export function TemplateGalleryDialog(props: {
  open: boolean;
  onClose: () => void;
  onCreate: (template: AssistantTemplate, name: string) => Promise<void>;
}) {
  const { t } = useTranslation("assistants");
  const templates = useQuery({ ...templatesQuery(), enabled: props.open });
  const [selected, setSelected] = useState<AssistantTemplate | null>(null);
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const choose = (template: AssistantTemplate) => {
    setSelected(template);
    setName(template.name);
  };
  const create = async () => {
    if (!selected || !name.trim()) return;
    setBusy(true);
    try {
      await props.onCreate(selected, name.trim());
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
            error={!name.trim()}
            helperText={
              name.trim() ? t("templates.nameHelp", { template: selected.name }) : t("templates.nameRequired")
            }
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{t("cancel")}</Button>
        <Button variant="contained" onClick={() => void create()} disabled={!selected || !name.trim() || busy}>
          {t("templates.create")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
