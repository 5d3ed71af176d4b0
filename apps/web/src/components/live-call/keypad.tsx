import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Popover from "@mui/material/Popover";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { visuallyHidden } from "../visually-hidden.ts";

const KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "0", "#"];

/** A phone keypad for testing an assistant's DTMF mapping during a browser call. */
export function Keypad({ disabled, onPress }: { disabled: boolean; onPress: (digit: string) => void }) {
  const { t } = useTranslation("live-call");
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button variant="outlined" disabled={disabled} onClick={(e) => setAnchor(e.currentTarget)} aria-haspopup="true">
        {t("keypad")}
      </Button>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "left" }}
      >
        <Box
          component="fieldset"
          sx={{ display: "grid", gridTemplateColumns: "repeat(3, 56px)", gap: 1, p: 1.5, m: 0, border: 0 }}
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
      </Popover>
    </>
  );
}
