import Divider from "@mui/material/Divider";
import Stack from "@mui/material/Stack";
import type { EditorForm } from "./editor-types.ts";
import { ExperimentsSection } from "./experiments-section.tsx";
import { VersionsSection } from "./versions-section.tsx";

/** The editor's Versions tab (issue 30): the versions and rollback, then the experiments between them. */
export function VersionsTab({ assistantId, form }: { assistantId: string; form: EditorForm }) {
  return (
    <Stack spacing={3} divider={<Divider />}>
      <VersionsSection assistantId={assistantId} form={form} />
      <ExperimentsSection assistantId={assistantId} />
    </Stack>
  );
}
