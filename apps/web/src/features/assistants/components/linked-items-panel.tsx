import LinkOffIcon from "@mui/icons-material/LinkOff";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useId, useState } from "react";
import { Link as RouterLink } from "react-router";

export interface LinkedItem {
  id: string;
  name: string;
  detail?: string | null;
}

/** Texts of one kind of linked item (functions, tool servers), already translated. */
export interface LinkedItemsTexts {
  title: string;
  help: string;
  assigned: string;
  none: string;
  choose: string;
  assign: string;
  unassign: (name: string) => string;
  noneInWorkspace: string;
  allAssigned: string;
  manage: string;
  loading: string;
}

/**
 * Items of the workspace linked to an assistant: the linked ones with an unlink button each, and
 * a picker of the others to link. Linking takes effect at once (it is not part of the form's save).
 */
export function LinkedItemsPanel(props: {
  texts: LinkedItemsTexts;
  manageHref: string;
  assigned: LinkedItem[] | undefined;
  available: LinkedItem[] | undefined;
  error: string | null;
  busy: boolean;
  onAssign: (id: string) => Promise<void>;
  onUnassign: (item: LinkedItem) => Promise<void>;
}) {
  const { texts } = props;
  const [choice, setChoice] = useState("");
  // Two panels can share a tab (functions and knowledge), so each heading needs its own id.
  const headingId = useId();
  if (props.error) return <Typography color="error">{props.error}</Typography>;
  if (!props.assigned || !props.available) return <CircularProgress aria-label={texts.loading} />;
  const assignedIds = new Set(props.assigned.map((i) => i.id));
  const choices = props.available.filter((i) => !assignedIds.has(i.id));

  return (
    <Stack spacing={2} component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="h6" component="h2">
        {texts.title}
      </Typography>
      <Typography color="text.secondary">{texts.help}</Typography>
      <Paper variant="outlined">
        {props.assigned.length === 0 ? (
          <Typography sx={{ p: 2 }} color="text.secondary">
            {texts.none}
          </Typography>
        ) : (
          <List aria-label={texts.assigned} dense>
            {props.assigned.map((item) => (
              <ListItem
                key={item.id}
                secondaryAction={
                  <IconButton
                    edge="end"
                    aria-label={texts.unassign(item.name)}
                    disabled={props.busy}
                    onClick={() => void props.onUnassign(item)}
                  >
                    <LinkOffIcon />
                  </IconButton>
                }
              >
                <ListItemText primary={item.name} secondary={item.detail || undefined} />
              </ListItem>
            ))}
          </List>
        )}
      </Paper>
      {props.available.length === 0 ? (
        <Typography>
          {texts.noneInWorkspace}{" "}
          <Link component={RouterLink} to={props.manageHref}>
            {texts.manage}
          </Link>
        </Typography>
      ) : choices.length === 0 ? (
        <Typography color="text.secondary">{texts.allAssigned}</Typography>
      ) : (
        // Not a form of its own: this panel sits inside the assistant editor's form.
        <Stack direction={{ xs: "column", sm: "row" }} spacing={1}>
          <TextField
            select
            size="small"
            label={texts.choose}
            value={choices.some((c) => c.id === choice) ? choice : ""}
            onChange={(e) => setChoice(e.target.value)}
            sx={{ minWidth: 280 }}
          >
            {choices.map((item) => (
              <MenuItem key={item.id} value={item.id}>
                {item.name}
              </MenuItem>
            ))}
          </TextField>
          <Button
            variant="contained"
            disabled={!choice || props.busy}
            onClick={() => void props.onAssign(choice).then(() => setChoice(""))}
          >
            {texts.assign}
          </Button>
          <Link component={RouterLink} to={props.manageHref} sx={{ alignSelf: "center" }}>
            {texts.manage}
          </Link>
        </Stack>
      )}
    </Stack>
  );
}
