import AccountCircleOutlined from "@mui/icons-material/AccountCircleOutlined";
import AdminPanelSettingsOutlined from "@mui/icons-material/AdminPanelSettingsOutlined";
import ApiOutlined from "@mui/icons-material/ApiOutlined";
import BusinessOutlined from "@mui/icons-material/BusinessOutlined";
import CallOutlined from "@mui/icons-material/CallOutlined";
import CampaignOutlined from "@mui/icons-material/CampaignOutlined";
import CreditCardOutlined from "@mui/icons-material/CreditCardOutlined";
import DashboardOutlined from "@mui/icons-material/DashboardOutlined";
import DnsOutlined from "@mui/icons-material/DnsOutlined";
import ExtensionOutlined from "@mui/icons-material/ExtensionOutlined";
import FunctionsOutlined from "@mui/icons-material/FunctionsOutlined";
import GraphicEqOutlined from "@mui/icons-material/GraphicEqOutlined";
import GroupsOutlined from "@mui/icons-material/GroupsOutlined";
import HistoryOutlined from "@mui/icons-material/HistoryOutlined";
import HubOutlined from "@mui/icons-material/HubOutlined";
import InsightsOutlined from "@mui/icons-material/InsightsOutlined";
import KeyOutlined from "@mui/icons-material/KeyOutlined";
import LayersOutlined from "@mui/icons-material/LayersOutlined";
import MenuBookOutlined from "@mui/icons-material/MenuBookOutlined";
import MicOutlined from "@mui/icons-material/MicOutlined";
import PeopleOutline from "@mui/icons-material/PeopleOutline";
import PrivacyTipOutlined from "@mui/icons-material/PrivacyTipOutlined";
import RuleOutlined from "@mui/icons-material/RuleOutlined";
import SmartToyOutlined from "@mui/icons-material/SmartToyOutlined";
import TuneOutlined from "@mui/icons-material/TuneOutlined";
import WidgetsOutlined from "@mui/icons-material/WidgetsOutlined";
import type { ReactElement } from "react";
import { paths } from "../../config/paths.ts";

export interface NavItem {
  /** i18n key under "nav." */
  key: string;
  path: string;
  icon: ReactElement;
}

export interface NavGroup {
  key: string;
  items: NavItem[];
  superuserOnly?: boolean;
}

/** The sidebar: spec §2's signed-in routes, grouped the way people work. */
export const NAV_GROUPS: NavGroup[] = [
  { key: "overview", items: [{ key: "home", path: paths.home, icon: <DashboardOutlined /> }] },
  {
    key: "build",
    items: [
      { key: "assistants", path: paths.assistants, icon: <SmartToyOutlined /> },
      { key: "assistant", path: paths.assistant, icon: <MicOutlined /> },
      { key: "tests", path: paths.tests, icon: <RuleOutlined /> },
      { key: "workflows", path: paths.workflows, icon: <HubOutlined /> },
      { key: "squads", path: "/squads", icon: <GroupsOutlined /> },
      { key: "functions", path: paths.functions, icon: <FunctionsOutlined /> },
      { key: "mcpServers", path: paths.mcpServers, icon: <ExtensionOutlined /> },
      { key: "knowledgeBase", path: paths.knowledgeBase, icon: <MenuBookOutlined /> },
    ],
  },
  {
    key: "telephony",
    items: [
      { key: "phoneNumbers", path: paths.phoneNumbers, icon: <CallOutlined /> },
      { key: "batchCalls", path: paths.batchCalls, icon: <CampaignOutlined /> },
      { key: "callWidgets", path: paths.callWidgets, icon: <WidgetsOutlined /> },
    ],
  },
  {
    key: "observe",
    items: [
      { key: "callLogs", path: paths.callLogs, icon: <HistoryOutlined /> },
      { key: "analytics", path: "/analytics", icon: <InsightsOutlined /> },
      { key: "voiceLab", path: paths.voiceLab, icon: <GraphicEqOutlined /> },
    ],
  },
  {
    key: "settings",
    items: [
      { key: "apiKeys", path: paths.apiKeys, icon: <KeyOutlined /> },
      { key: "integrations", path: paths.integrations, icon: <ApiOutlined /> },
      { key: "privacy", path: "/privacy", icon: <PrivacyTipOutlined /> },
      { key: "billing", path: paths.billing, icon: <CreditCardOutlined /> },
      { key: "enterpriseQuota", path: paths.enterpriseQuota, icon: <BusinessOutlined /> },
      { key: "profile", path: paths.profile, icon: <AccountCircleOutlined /> },
    ],
  },
  {
    key: "admin",
    superuserOnly: true,
    items: [
      { key: "adminDashboard", path: paths.admin, icon: <AdminPanelSettingsOutlined /> },
      { key: "adminUsers", path: paths.adminUsers, icon: <PeopleOutline /> },
      { key: "adminTiers", path: paths.adminTiers, icon: <LayersOutlined /> },
      { key: "adminQuotas", path: paths.adminQuotas, icon: <TuneOutlined /> },
      { key: "adminNodes", path: paths.adminNodes, icon: <DnsOutlined /> },
    ],
  },
];
