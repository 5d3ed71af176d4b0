import CallIcon from "@mui/icons-material/Call";
import CloseIcon from "@mui/icons-material/Close";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Drawer from "@mui/material/Drawer";
import IconButton from "@mui/material/IconButton";
import Typography from "@mui/material/Typography";
import { type ComponentType, useState } from "react";
import { useTranslation } from "react-i18next";

/** The live call panel, handed in by the route: it belongs to the live-call feature. */
export type TestCallPanel = ComponentType<{ assistantId: string; assistantName: string }>;

/**
 * "Test call" beside Save: opens the live call panel in a side drawer so the editor stays in view.
 * The call uses the saved assistant; closing the drawer ends it.
 */
export function TestCallButton({
  assistantId,
  assistantName,
  CallPanel,
  missingKeyNote,
}: {
  assistantId: string;
  assistantName: string;
  CallPanel: TestCallPanel;
  /** The id of the note saying which keys are missing: the button is disabled and points at it. */
  missingKeyNote?: string;
}) {
  const { t } = useTranslation("assistants");
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<CallIcon />}
        onClick={() => setOpen(true)}
        disabled={missingKeyNote !== undefined}
        aria-describedby={missingKeyNote}
      >
        {t("testCall.open")}
      </Button>
      <Drawer
        anchor="right"
        open={open}
        onClose={() => setOpen(false)}
        slotProps={{ paper: { sx: { width: { xs: "100%", sm: 480 } } } }}
      >
        <Box sx={{ p: 2 }}>
          <Box sx={{ display: "flex", alignItems: "center", mb: 1 }}>
            <Typography variant="body2" color="text.secondary" sx={{ flexGrow: 1 }}>
              {t("testCall.savedVersion")}
            </Typography>
            <IconButton onClick={() => setOpen(false)} aria-label={t("testCall.close")}>
              <CloseIcon />
            </IconButton>
          </Box>
          {open && <CallPanel assistantId={assistantId} assistantName={assistantName} />}
        </Box>
      </Drawer>
    </>
  );
}
