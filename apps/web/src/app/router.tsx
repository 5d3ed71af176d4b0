import { lazy, Suspense } from "react";
import { createBrowserRouter, Navigate, Outlet } from "react-router";
import { CenteredSpinner } from "../components/centered-spinner.tsx";
import { paths } from "../config/paths.ts";
import { RequireAuth, RequireSuperuser, VisitorOnly } from "./guards.tsx";
import { ScrollToTop } from "./scroll-to-top.tsx";

const page = (load: () => Promise<{ default: React.ComponentType }>) => {
  const Component = lazy(load);
  return <Component />;
};
const SectionPage = lazy(() => import("../features/sections/section-page.tsx"));
const section = (key: string) => <SectionPage titleKey={`nav.${key}`} />;

function Frame({ guard }: { guard: "visitor" | "none" }) {
  const content = (
    <Suspense fallback={<CenteredSpinner />}>
      <ScrollToTop />
      <Outlet />
    </Suspense>
  );
  return guard === "visitor" ? <VisitorOnly>{content}</VisitorOnly> : content;
}

const AppLayout = lazy(() => import("./app-layout.tsx"));

export const router = createBrowserRouter([
  {
    path: "/auth",
    element: <Frame guard="none" />,
    children: [
      { path: "404", element: page(() => import("../features/auth/pages/not-found-page.tsx")) },
      {
        element: <Frame guard="visitor" />,
        children: [
          { path: "login", element: page(() => import("../features/auth/pages/login-page.tsx")) },
          { path: "signup", element: <Navigate to={paths.login} replace /> },
          { path: "signup-sso", element: page(() => import("../features/auth/pages/signup-sso-page.tsx")) },
          { path: "sso-callback", element: page(() => import("../features/auth/pages/sso-callback-page.tsx")) },
          {
            path: "magic-link-callback",
            element: page(() => import("../features/auth/pages/magic-link-callback-page.tsx")),
          },
          {
            path: "complete-signup-magic-link",
            element: page(() => import("../features/auth/pages/complete-signup-page.tsx")),
          },
          { path: "*", element: <Navigate to={paths.root} replace /> },
        ],
      },
    ],
  },
  {
    path: paths.resetPassword,
    element: <Frame guard="visitor" />,
    children: [{ index: true, element: page(() => import("../features/auth/pages/reset-password-page.tsx")) }],
  },
  {
    path: "/",
    element: (
      <RequireAuth>
        <Suspense fallback={<CenteredSpinner />}>
          <ScrollToTop />
          <AppLayout />
        </Suspense>
      </RequireAuth>
    ),
    children: [
      { index: true, element: <Navigate to={paths.home} replace /> },
      { path: "home", element: page(() => import("../features/home/pages/home-page.tsx")) },
      { path: "assistants", element: page(() => import("../features/assistants/pages/assistants-page.tsx")) },
      {
        path: "assistants/:assistantId",
        element: page(() => import("../features/assistants/pages/assistant-detail-page.tsx")),
      },
      { path: "assistants/:assistantId/workflow", element: section("workflows") },
      { path: "workflows", element: section("workflows") },
      { path: "workflows/:workflowId", element: section("workflows") },
      { path: "assistant", element: page(() => import("../features/voice-assistant/pages/voice-assistant-page.tsx")) },
      { path: "phone-numbers", element: section("phoneNumbers") },
      { path: "phone-numbers/:phoneNumberId", element: section("phoneNumbers") },
      { path: "functions", element: page(() => import("../features/functions/pages/functions-page.tsx")) },
      { path: "mcp-servers", element: page(() => import("../features/mcp-servers/pages/mcp-servers-page.tsx")) },
      { path: "call-logs", element: page(() => import("../features/call-logs/pages/call-logs-page.tsx")) },
      {
        path: "call-logs/batch-call-id/:batchCallId",
        element: page(() => import("../features/call-logs/pages/call-logs-page.tsx")),
      },
      { path: "knowledge-base", element: section("knowledgeBase") },
      { path: "voice-lab", element: page(() => import("../features/voice-lab/pages/voice-lab-page.tsx")) },
      { path: "api-keys", element: section("apiKeys") },
      { path: "integrations", element: page(() => import("../features/integrations/pages/integrations-page.tsx")) },
      { path: "batch-calls", element: section("batchCalls") },
      { path: "billing", element: section("billing") },
      { path: "call-widgets", element: section("callWidgets") },
      { path: "call-widgets/:widgetId", element: section("callWidgets") },
      {
        path: "enterprise-quota",
        element: page(() => import("../features/workspaces/pages/enterprise-quota-page.tsx")),
      },
      { path: "profile", element: page(() => import("../features/profile/pages/profile-page.tsx")) },
      {
        path: "admin",
        element: (
          <RequireSuperuser>
            <Outlet />
          </RequireSuperuser>
        ),
        children: [
          { index: true, element: page(() => import("../features/admin/pages/admin-dashboard-page.tsx")) },
          { path: "users", element: page(() => import("../features/admin/pages/admin-users-page.tsx")) },
          { path: "tiers", element: page(() => import("../features/admin/pages/admin-tiers-page.tsx")) },
          { path: "quotas", element: page(() => import("../features/admin/pages/admin-quotas-page.tsx")) },
          { path: "*", element: <Navigate to={paths.admin} replace /> },
        ],
      },
      { path: "*", element: <Navigate to={paths.root} replace /> },
    ],
  },
]);
