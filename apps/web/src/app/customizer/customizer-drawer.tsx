import CloseIcon from "@mui/icons-material/Close";
import Box from "@mui/material/Box";
import Drawer from "@mui/material/Drawer";
import FormControlLabel from "@mui/material/FormControlLabel";
import IconButton from "@mui/material/IconButton";
import MenuItem from "@mui/material/MenuItem";
import Slider from "@mui/material/Slider";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { LANGUAGES } from "../../i18n/languages.ts";
import { type Preferences, THEME_COLOURS } from "./preferences.ts";
import { usePreferences } from "./preferences-context.tsx";

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Box>
      <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** The customizer panel: mode, direction, language, colour, radius, card shadow and layout. */
export function CustomizerDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { preferences, update } = usePreferences();
  const pick =
    <K extends keyof Preferences>(key: K) =>
    (_: unknown, value: Preferences[K] | null) => {
      if (value !== null) update({ [key]: value } as Partial<Preferences>);
    };

  return (
    <Drawer anchor="right" open={open} onClose={onClose} slotProps={{ paper: { sx: { width: 320, p: 3 } } }}>
      <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between", mb: 2 }}>
        <Typography variant="h6" component="h2">
          {t("customizer.title")}
        </Typography>
        <IconButton onClick={onClose} aria-label={t("common.close")}>
          <CloseIcon />
        </IconButton>
      </Stack>
      <Stack spacing={3}>
        <Section title={t("customizer.mode")}>
          <ToggleButtonGroup
            exclusive
            fullWidth
            size="small"
            value={preferences.mode}
            onChange={pick("mode")}
            aria-label={t("customizer.mode")}
          >
            <ToggleButton value="light">{t("customizer.light")}</ToggleButton>
            <ToggleButton value="dark">{t("customizer.dark")}</ToggleButton>
          </ToggleButtonGroup>
        </Section>
        <Section title={t("customizer.direction")}>
          <ToggleButtonGroup
            exclusive
            fullWidth
            size="small"
            value={preferences.direction}
            onChange={pick("direction")}
            aria-label={t("customizer.direction")}
          >
            <ToggleButton value="ltr">{t("customizer.ltr")}</ToggleButton>
            <ToggleButton value="rtl">{t("customizer.rtl")}</ToggleButton>
          </ToggleButtonGroup>
        </Section>
        <Section title={t("customizer.language")}>
          <TextField
            select
            fullWidth
            size="small"
            label={t("customizer.language")}
            value={preferences.language}
            onChange={(e) => {
              // Choosing a language also sets its reading direction (Arabic reads right to left).
              const language = LANGUAGES.find((l) => l.code === e.target.value);
              if (language) update({ language: language.code, direction: language.dir });
            }}
          >
            {LANGUAGES.map((l) => (
              <MenuItem key={l.code} value={l.code}>
                {l.name}
              </MenuItem>
            ))}
          </TextField>
        </Section>
        <Section title={t("customizer.colour")}>
          <Stack direction="row" spacing={1} role="radiogroup" aria-label={t("customizer.colour")}>
            {Object.entries(THEME_COLOURS).map(([name, colour]) => (
              <IconButton
                key={name}
                role="radio"
                aria-checked={preferences.themeName === name}
                aria-label={t(`customizer.colours.${name}`)}
                onClick={() => update({ themeName: name as Preferences["themeName"] })}
                sx={{
                  width: 32,
                  height: 32,
                  bgcolor: colour,
                  border: 3,
                  borderColor: preferences.themeName === name ? "text.primary" : "transparent",
                  "&:hover": { bgcolor: colour },
                }}
              />
            ))}
          </Stack>
        </Section>
        <Section title={t("customizer.layout")}>
          <ToggleButtonGroup
            exclusive
            fullWidth
            size="small"
            value={preferences.layout}
            onChange={pick("layout")}
            aria-label={t("customizer.layout")}
          >
            <ToggleButton value="boxed">{t("customizer.boxed")}</ToggleButton>
            <ToggleButton value="full">{t("customizer.full")}</ToggleButton>
          </ToggleButtonGroup>
        </Section>
        <Section title={t("customizer.navigation")}>
          <ToggleButtonGroup
            exclusive
            fullWidth
            size="small"
            value={preferences.horizontal ? "horizontal" : "vertical"}
            onChange={(_, v: string | null) => v && update({ horizontal: v === "horizontal" })}
            aria-label={t("customizer.navigation")}
          >
            <ToggleButton value="vertical">{t("customizer.vertical")}</ToggleButton>
            <ToggleButton value="horizontal">{t("customizer.horizontal")}</ToggleButton>
          </ToggleButtonGroup>
          <FormControlLabel
            sx={{ mt: 1 }}
            control={
              <Switch
                checked={preferences.collapsed}
                onChange={(e) => update({ collapsed: e.target.checked, sidebarHover: false })}
              />
            }
            label={t("customizer.collapse")}
          />
        </Section>
        <Section title={t("customizer.cardShadow")}>
          <FormControlLabel
            control={
              <Switch checked={preferences.cardShadow} onChange={(e) => update({ cardShadow: e.target.checked })} />
            }
            label={t("customizer.cardShadowLabel")}
          />
        </Section>
        <Section title={t("customizer.borderRadius")}>
          <Slider
            value={preferences.borderRadius}
            min={0}
            max={24}
            step={1}
            valueLabelDisplay="auto"
            onChange={(_, v) => update({ borderRadius: v as number })}
            aria-label={t("customizer.borderRadius")}
          />
        </Section>
      </Stack>
    </Drawer>
  );
}
