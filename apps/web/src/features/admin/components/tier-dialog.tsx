import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Grid from "@mui/material/Grid";
import TextField from "@mui/material/TextField";
import { type Tier, TierBody } from "@parley/contract";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";

const NUMBER_FIELDS = ["max_assistants", "minutes_per_month", "concurrent_calls", "max_workspaces", "price"] as const;

/** Create or edit a tier; validated with the contract's schema before it is sent. */
export function TierDialog(props: {
  tier: Tier | null;
  open: boolean;
  onClose: () => void;
  onSubmit: (body: TierBody) => Promise<void>;
}) {
  const { t } = useTranslation();
  const initial = props.tier;
  const [values, setValues] = useState<Record<string, string>>(() => ({
    name: initial?.name ?? "",
    description: initial?.description ?? "",
    ...Object.fromEntries(NUMBER_FIELDS.map((f) => [f, initial ? String(initial[f]) : ""])),
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = TierBody.safeParse({
      name: values.name,
      description: values.description || null,
      ...Object.fromEntries(NUMBER_FIELDS.map((f) => [f, values[f] === "" ? Number.NaN : Number(values[f])])),
    });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setBusy(true);
    try {
      await props.onSubmit(parsed.data);
    } finally {
      setBusy(false);
    }
  };

  const field = (name: string, type: "text" | "number" = "number") => (
    <TextField
      fullWidth
      label={t(`admin.tierFields.${name}`)}
      type={type}
      value={values[name] ?? ""}
      onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
      error={Boolean(errors[name])}
      helperText={errors[name]}
      required={name !== "description"}
    />
  );

  return (
    <Dialog open={props.open} onClose={props.onClose} fullWidth maxWidth="sm" aria-labelledby="tier-dialog-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="tier-dialog-title">{initial ? t("admin.editTier") : t("admin.newTier")}</DialogTitle>
        <DialogContent>
          <Grid container spacing={2} sx={{ pt: 1 }}>
            <Grid size={12}>{field("name", "text")}</Grid>
            <Grid size={12}>{field("description", "text")}</Grid>
            {NUMBER_FIELDS.map((f) => (
              <Grid key={f} size={{ xs: 12, sm: 6 }}>
                {field(f)}
              </Grid>
            ))}
          </Grid>
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {t("common.save")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
