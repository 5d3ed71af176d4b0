import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { useAssistants } from "../../../api/assistants.ts";
import { paths } from "../../../config/paths.ts";
import { assistantSummary, searchAssistants } from "../utils/assistant-list.ts";

/** The workspace's assistants beside the editor on wide screens, to switch between them. */
export function AssistantSideList({ currentId }: { currentId: string }) {
  const { t } = useTranslation("assistants");
  const assistants = useAssistants();
  const [search, setSearch] = useState("");
  const shown = assistants.data ? searchAssistants(assistants.data, search) : [];
  return (
    <Paper variant="outlined" component="nav" aria-label={t("editor.allAssistants")} sx={{ p: 1.5 }}>
      <TextField
        type="search"
        size="small"
        fullWidth
        label={t("list.search")}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      <List dense sx={{ maxHeight: "70vh", overflowY: "auto" }}>
        {shown.map((a) => (
          <ListItem key={a.id} disablePadding>
            <ListItemButton
              component={RouterLink}
              to={`${paths.assistants}/${a.id}`}
              selected={a.id === currentId}
              aria-current={a.id === currentId ? "page" : undefined}
            >
              <ListItemText
                primary={a.name}
                secondary={assistantSummary(a).model}
                slotProps={{ primary: { noWrap: true, dir: "auto" }, secondary: { noWrap: true } }}
              />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}
