import Box from "@mui/material/Box";
import ButtonBase from "@mui/material/ButtonBase";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { WORKFLOW_NODE_TYPES, type WorkflowNodeType } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { PaletteIntro } from "./builder-frame.tsx";
import { kindColor, kindIcon } from "./node-kinds.tsx";
import { NODE_DRAG_TYPE } from "./workflow-canvas.tsx";

/**
 * The kinds of node: drag one onto the canvas, or press it (mouse or keyboard) to add it in the
 * middle of the view. A workflow has one start, so that entry is off once there is one.
 */
export function NodePalette(props: { hasStart: boolean; onAdd: (type: WorkflowNodeType) => void }) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  return (
    <Stack spacing={1} component="nav" aria-label={t("palette.title")} sx={{ p: 1.5, overflowY: "auto" }}>
      <PaletteIntro />
      {WORKFLOW_NODE_TYPES.map((type) => {
        const disabled = type === "start" && props.hasStart;
        return (
          <ButtonBase
            key={type}
            disabled={disabled}
            draggable={!disabled}
            onDragStart={(event) => {
              event.dataTransfer.setData(NODE_DRAG_TYPE, type);
              event.dataTransfer.effectAllowed = "move";
            }}
            onClick={() => props.onAdd(type)}
            aria-label={t("palette.add", { kind: t(`kinds.${type}`) })}
            data-kind={type}
            sx={{
              justifyContent: "flex-start",
              gap: 1,
              px: 1.25,
              py: 1,
              border: 1,
              borderColor: "divider",
              borderRadius: 1.5,
              bgcolor: "background.paper",
              cursor: disabled ? "default" : "grab",
              opacity: disabled ? 0.5 : 1,
              "&:hover": { borderColor: `${kindColor(type)}.main` },
              "&.Mui-focusVisible": { outline: 2, outlineColor: "primary.main", outlineStyle: "solid" },
            }}
          >
            <Box sx={{ color: `${kindColor(type)}.main`, display: "flex" }} aria-hidden>
              {kindIcon(type)}
            </Box>
            <Typography variant="body2" sx={{ textAlign: "start" }}>
              {t(`kinds.${type}`)}
            </Typography>
          </ButtonBase>
        );
      })}
    </Stack>
  );
}
