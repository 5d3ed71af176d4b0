import AltRouteOutlined from "@mui/icons-material/AltRouteOutlined";
import BuildOutlined from "@mui/icons-material/BuildOutlined";
import CallEndOutlined from "@mui/icons-material/CallEndOutlined";
import ChatOutlined from "@mui/icons-material/ChatOutlined";
import GroupsOutlined from "@mui/icons-material/GroupsOutlined";
import MenuBookOutlined from "@mui/icons-material/MenuBookOutlined";
import PhoneForwardedOutlined from "@mui/icons-material/PhoneForwardedOutlined";
import PlayCircleOutline from "@mui/icons-material/PlayCircleOutline";
import type { WorkflowNodeType } from "@parley/contract";
import type { ReactNode } from "react";

type KindColor = "primary" | "secondary" | "success" | "info" | "warning" | "error";

/** Each kind of node's mark on the canvas and in the palette: a theme palette colour and an icon. */
const KINDS: Record<WorkflowNodeType, { color: KindColor; Icon: typeof PlayCircleOutline }> = {
  start: { color: "success", Icon: PlayCircleOutline },
  conversation: { color: "primary", Icon: ChatOutlined },
  condition: { color: "warning", Icon: AltRouteOutlined },
  tool: { color: "secondary", Icon: BuildOutlined },
  knowledge: { color: "info", Icon: MenuBookOutlined },
  transfer: { color: "info", Icon: PhoneForwardedOutlined },
  handoff: { color: "secondary", Icon: GroupsOutlined },
  end: { color: "error", Icon: CallEndOutlined },
};

/** The theme palette colour that marks a kind of node. */
export const kindColor = (type: WorkflowNodeType): KindColor => KINDS[type].color;

export function kindIcon(type: WorkflowNodeType, fontSize: "small" | "inherit" = "small"): ReactNode {
  const { Icon } = KINDS[type];
  return <Icon fontSize={fontSize} />;
}
