import AudioFileOutlined from "@mui/icons-material/AudioFileOutlined";
import CloseIcon from "@mui/icons-material/Close";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import Button from "@mui/material/Button";
import FormHelperText from "@mui/material/FormHelperText";
import IconButton from "@mui/material/IconButton";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Typography from "@mui/material/Typography";
import { VOICE_CLONE_MAX_FILES } from "@parley/contract";
import { useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { formatBytes } from "../../../lib/byte-size.ts";
import { addFiles, type CloneFilesProblem, MAX_FILE_MB } from "../utils/clone-files.ts";

/** Picks the audio samples of a clone: adds to the chosen files, lists them, and says what is wrong. */
export function CloneFilesField(props: {
  files: File[];
  onChange: (files: File[]) => void;
  /** Problems to show now (the "no file" one only after a save attempt). */
  problems: CloneFilesProblem[];
  disabled?: boolean;
}) {
  const { t, i18n } = useTranslation("voice-lab");
  const helpId = useId();
  const input = useRef<HTMLInputElement>(null);
  const problemText = (p: CloneFilesProblem) =>
    p.kind === "none"
      ? t("clone.files.none")
      : p.kind === "tooMany"
        ? t("clone.files.tooMany", { max: p.max })
        : p.kind === "tooLarge"
          ? t("clone.files.tooLarge", { name: p.name, max: p.maxMb })
          : t("clone.files.notAudio", { name: p.name });

  return (
    <div>
      <Typography variant="subtitle2" component="p">
        {t("clone.files.label")}
      </Typography>
      <FormHelperText id={helpId} sx={{ mt: 0, mb: 1 }}>
        {t("clone.files.help", { max: VOICE_CLONE_MAX_FILES, size: MAX_FILE_MB })}
      </FormHelperText>
      {/* The file input stays out of the button: a control inside a control is announced badly. */}
      <input
        ref={input}
        type="file"
        accept="audio/*"
        multiple
        hidden
        disabled={props.disabled}
        onChange={(e) => {
          props.onChange(addFiles(props.files, Array.from(e.target.files ?? [])));
          // Reset so that choosing the same file again after removing it fires a change.
          e.target.value = "";
        }}
      />
      <Button
        variant="outlined"
        startIcon={<UploadFileIcon />}
        disabled={props.disabled}
        aria-describedby={helpId}
        onClick={() => input.current?.click()}
      >
        {t("clone.files.choose")}
      </Button>
      {props.files.length > 0 && (
        <List dense aria-label={t("clone.files.chosen")}>
          {props.files.map((file) => (
            <ListItem
              key={`${file.name}-${file.size}-${file.lastModified}`}
              secondaryAction={
                <IconButton
                  edge="end"
                  aria-label={t("clone.files.remove", { name: file.name })}
                  disabled={props.disabled}
                  onClick={() => props.onChange(props.files.filter((f) => f !== file))}
                >
                  <CloseIcon />
                </IconButton>
              }
            >
              <ListItemIcon>
                <AudioFileOutlined />
              </ListItemIcon>
              <ListItemText primary={file.name} secondary={formatBytes(file.size, i18n.language)} />
            </ListItem>
          ))}
        </List>
      )}
      <div role="alert">
        {props.problems.map((p) => (
          <FormHelperText key={`${p.kind}-${"name" in p ? p.name : ""}`} error>
            {problemText(p)}
          </FormHelperText>
        ))}
      </div>
    </div>
  );
}
