import DeleteOutline from "@mui/icons-material/DeleteOutline";
import EditOutlined from "@mui/icons-material/EditOutlined";
import PlayArrowOutlined from "@mui/icons-material/PlayArrowOutlined";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { ToolFunction } from "@parley/contract";
import { useTranslation } from "react-i18next";

export type FunctionAction = "test" | "edit" | "delete";

const ACTIONS = [
  { action: "test", icon: <PlayArrowOutlined />, label: "testNamed" },
  { action: "edit", icon: <EditOutlined />, label: "editNamed" },
  { action: "delete", icon: <DeleteOutline />, label: "deleteNamed" },
] as const;

/** The workspace's functions: what each calls and how, with test, edit and delete per row. */
export function FunctionsTable(props: {
  functions: ToolFunction[];
  onAction: (a: FunctionAction, fn: ToolFunction) => void;
}) {
  const { t } = useTranslation(["functions", "translation"], { nsMode: "fallback" });
  return (
    <TableContainer component={Paper}>
      <Table aria-label={t("nav.functions")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("fields.name")}</TableCell>
            <TableCell>{t("fields.endpoint")}</TableCell>
            <TableCell>{t("fields.timeout")}</TableCell>
            <TableCell>{t("fields.secret")}</TableCell>
            <TableCell align="right">{t("common.actions")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {props.functions.map((fn) => (
            <TableRow key={fn.id}>
              <TableCell>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {fn.name}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  {fn.description}
                </Typography>
              </TableCell>
              <TableCell sx={{ maxWidth: 360, wordBreak: "break-all" }}>
                <Chip size="small" label={fn.method} sx={{ mr: 1, fontFamily: "monospace" }} />
                <span dir="ltr">{fn.url}</span>
              </TableCell>
              <TableCell>{t("seconds", { value: fn.timeout })}</TableCell>
              <TableCell>{fn.has_secret ? t("secretSet") : t("secretNone")}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                {ACTIONS.map(({ action, icon, label }) => (
                  <Tooltip key={action} title={t(label, { name: fn.name })}>
                    <IconButton aria-label={t(label, { name: fn.name })} onClick={() => props.onAction(action, fn)}>
                      {icon}
                    </IconButton>
                  </Tooltip>
                ))}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
