import CloudUploadOutlined from "@mui/icons-material/CloudUploadOutlined";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import LinearProgress from "@mui/material/LinearProgress";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { DOCUMENT_MAX_FILE_BYTES } from "@parley/contract";
import { type DragEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useUploadDocument } from "../../../api/documents.ts";
import { errorText } from "../../../components/error-text.ts";
import { useNotice } from "../../../lib/use-notice.ts";

interface Upload {
  key: number;
  name: string;
  progress: number;
  error: string | null;
}

const ACCEPT = ".pdf,.docx,.txt,.md,.markdown,.html,.htm,.csv";

/** Drop files here (or pick them): each uploads on its own with its progress; failures stay listed. */
export function UploadZone() {
  const { t } = useTranslation("knowledge-base");
  const notice = useNotice();
  const upload = useUploadDocument();
  const input = useRef<HTMLInputElement>(null);
  const next = useRef(0);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [over, setOver] = useState(false);

  const patch = (key: number, change: Partial<Upload>) =>
    setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));

  const start = (files: File[]) => {
    for (const file of files) {
      next.current += 1;
      const key = next.current;
      setUploads((list) => [...list, { key, name: file.name, progress: 0, error: null }]);
      if (file.size > DOCUMENT_MAX_FILE_BYTES) {
        patch(key, { error: t("tooLarge") });
        continue;
      }
      // Each file keeps its own promise: mutate()'s callbacks would fire for the latest file only.
      upload.mutateAsync({ file, onProgress: (fraction) => patch(key, { progress: fraction }) }).then(
        () => {
          setUploads((list) => list.filter((u) => u.key !== key));
          notice.success(t("uploaded", { name: file.name }));
        },
        (error: unknown) => patch(key, { error: errorText(error, t("common.failed")) }),
      );
    }
  };

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    start(Array.from(event.dataTransfer.files));
  };

  return (
    <Stack spacing={1}>
      <Paper
        variant="outlined"
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        sx={{
          p: 3,
          textAlign: "center",
          borderStyle: "dashed",
          borderColor: over ? "primary.main" : "divider",
          bgcolor: over ? "action.hover" : undefined,
        }}
      >
        <CloudUploadOutlined color="action" fontSize="large" aria-hidden />
        <Typography>{t("dropHere")}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t("types")}
        </Typography>
        <Button variant="outlined" onClick={() => input.current?.click()}>
          {t("chooseFiles")}
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          accept={ACCEPT}
          aria-label={t("chooseFiles")}
          onChange={(event) => {
            start(Array.from(event.target.files ?? []));
            event.target.value = "";
          }}
        />
      </Paper>
      {uploads.map((u) =>
        u.error ? (
          <Alert key={u.key} severity="error" onClose={() => setUploads((list) => list.filter((x) => x.key !== u.key))}>
            {t("uploadFailed", { name: u.name, reason: u.error })}
          </Alert>
        ) : (
          <Stack key={u.key} spacing={0.5}>
            <Typography variant="body2">{t("uploading", { name: u.name })}</Typography>
            <LinearProgress
              variant="determinate"
              value={Math.round(u.progress * 100)}
              aria-label={t("uploading", { name: u.name })}
            />
          </Stack>
        ),
      )}
    </Stack>
  );
}
