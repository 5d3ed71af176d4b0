import AltRouteOutlined from "@mui/icons-material/AltRouteOutlined";
import BuildOutlined from "@mui/icons-material/BuildOutlined";
import CallEndOutlined from "@mui/icons-material/CallEndOutlined";
import ChatOutlined from "@mui/icons-material/ChatOutlined";
import MenuBookOutlined from "@mui/icons-material/MenuBookOutlined";
import PhoneForwardedOutlined from "@mui/icons-material/PhoneForwardedOutlined";
import PlayCircleOutline from "@mui/icons-material/PlayCircleOutline";
import type { WorkflowNodeType } from "@parley/contract";
import type { ReactNode } from "react";

/** The theme palette colour that marks each kind of node on the canvas and in the palette. */
export const KIND_COLOR: Record<WorkflowNodeType, "primary" | "secondary" | "success" | "info" | "warning" | "error"> =
  {
    start: "success",
    conversation: "primary",
    condition: "warning",
    tool: "secondary",
    knowledge: "info",
    transfer: "info",
    end: "error",
  };

export function kindIcon(type: WorkflowNodeType, fontSize: "small" | "inherit" = "small"): ReactNode {
  switch (type) {
    case "start":
      return <PlayCircleOutline fontSize={fontSize} />;
    case "conversation":
      return <ChatOutlined fontSize={fontSize} />;
    case "condition":
      return <AltRouteOutlined fontSize={fontSize} />;
    case "tool":
      return <BuildOutlined fontSize={fontSize} />;
    case "knowledge":
      return <MenuBookOutlined fontSize={fontSize} />;
    case "transfer":
      return <PhoneForwardedOutlined fontSize={fontSize} />;
    case "end":
      return <CallEndOutlined fontSize={fontSize} />;
  }
}
