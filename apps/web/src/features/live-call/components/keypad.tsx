import DialpadIcon from "@mui/icons-material/Dialpad";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import { useTranslation } from "react-i18next";
import { visuallyHidden } from "../../../components/visually-hidden.ts";

const KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "0", "#"];

/** Shows or hides the keypad; it opens in the panel's flow, so it never covers End call or the chat. */
export function KeypadToggle(props: { open: boolean; disabled: boolean; onToggle: () => void }) {
  const { t } = useTranslation("live-call");
  return (
    <Button
      variant={props.open ? "contained" : "outlined"}
      disabled={props.disabled}
      onClick={props.onToggle}
      aria-expanded={props.open}
      aria-controls={props.open ? "live-call-keypad" : undefined}
      startIcon={<DialpadIcon />}
    >
      {t("keypad")}
    </Button>
  );
}

/** A phone keypad for testing an assistant's DTMF mapping during a browser call. */
export function Keypad({ onPress }: { onPress: (digit: string) => void }) {
  const { t } = useTranslation("live-call");
  return (
    <Box
      component="fieldset"
      id="live-call-keypad"
      sx={{ display: "grid", gridTemplateColumns: "repeat(3, 56px)", gap: 1, p: 0, mx: 0, mt: 0, mb: 2, border: 0 }}
    >
      <Box component="legend" sx={visuallyHidden}>
        {t("keypad")}
      </Box>
      {KEYS.map((key) => (
        <Button
          key={key}
          variant="outlined"
          onClick={() => onPress(key)}
          aria-label={t("pressKey", { key })}
          sx={{ minWidth: 0, fontSize: 18 }}
        >
          {key}
        </Button>
      ))}
    </Box>
  );
}
