import DeleteOutline from "@mui/icons-material/DeleteOutline";
import PlayCircleOutline from "@mui/icons-material/PlayCircleOutline";
import IconButton from "@mui/material/IconButton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import { TTS_CATALOG, type VoiceClone } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { languageName } from "../utils/languages.ts";

export type CloneAction = "try" | "delete";

/** The workspace's voice clones, newest first, each to try in the synthesis panel or delete. */
export function ClonesTable({
  clones,
  onAction,
}: {
  clones: VoiceClone[];
  onAction: (action: CloneAction, clone: VoiceClone) => void;
}) {
  const { t, i18n } = useTranslation(["voice-lab", "translation"], { nsMode: "fallback" });
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });
  return (
    <TableContainer>
      <Table aria-label={t("clones.title")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("clones.name")}</TableCell>
            <TableCell>{t("clones.provider")}</TableCell>
            <TableCell>{t("clones.language")}</TableCell>
            <TableCell>{t("clones.description")}</TableCell>
            <TableCell>{t("clones.created")}</TableCell>
            <TableCell align="right">{t("common.actions")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {clones.map((clone) => (
            <TableRow key={clone.id}>
              <TableCell sx={{ fontWeight: 600 }}>{clone.name}</TableCell>
              <TableCell>{TTS_CATALOG[clone.service_name].label}</TableCell>
              <TableCell>{languageName(clone.language, i18n.language)}</TableCell>
              <TableCell sx={{ color: "text.secondary", maxWidth: 320 }}>{clone.description || "—"}</TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{date.format(new Date(clone.created_at))}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                <Tooltip title={t("clones.try")}>
                  <IconButton
                    aria-label={t("clones.tryNamed", { name: clone.name })}
                    onClick={() => onAction("try", clone)}
                  >
                    <PlayCircleOutline />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t("clones.delete")}>
                  <IconButton
                    aria-label={t("clones.deleteNamed", { name: clone.name })}
                    onClick={() => onAction("delete", clone)}
                  >
                    <DeleteOutline />
                  </IconButton>
                </Tooltip>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
