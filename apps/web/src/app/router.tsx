import { lazy, Suspense } from "react";
import { createBrowserRouter, Navigate, Outlet } from "react-router";
import { CenteredSpinner } from "../components/centered-spinner.tsx";
import { paths } from "../config/paths.ts";
import i18n from "../i18n/index.ts";
import { RequireAuth, RequireSuperuser, VisitorOnly } from "./guards.tsx";
import { ScrollToTop } from "./scroll-to-top.tsx";

/**
 * Loads a page's code together with the i18n namespaces it reads, instead of fetching those only
 * once the page first renders and asks for them: one round trip fewer before anything shows.
 */
const withStrings =
  <T,>(load: () => Promise<T>, strings: string[]) =>
  async () => {
    // A namespace that fails to load leaves the page to i18next's fallback, as it always did.
    const [module] = await Promise.all([load(), i18n.loadNamespaces(strings).catch(() => undefined)]);
    return module;
  };
const page = (load: () => Promise<{ default: React.ComponentType }>, ...strings: string[]) => {
  const Component = lazy(withStrings(load, strings));
  return <Component />;
};

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
          {
            path: "login",
            element: page(() => import("../features/auth/pages/login-page.tsx"), "auth", "form-messages"),
          },
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
      { path: "home", element: page(() => import("../features/home/pages/home-page.tsx"), "home") },
      {
        path: "assistants",
        element: page(() => import("../features/assistants/pages/assistants-page.tsx"), "assistants"),
      },
      {
        path: "assistants/:assistantId",
        element: page(() => import("./routes/assistant-detail-route.tsx"), "assistants", "live-call"),
      },
      {
        path: "assistants/:assistantId/workflow",
        element: page(() => import("../features/workflows/pages/assistant-workflow-page.tsx"), "workflows"),
      },
      { path: "workflows", element: page(() => import("../features/workflows/pages/workflows-page.tsx"), "workflows") },
      {
        path: "workflows/:workflowId",
        element: page(() => import("../features/workflows/pages/workflow-builder-page.tsx"), "workflows"),
      },
      {
        path: "assistant",
        element: page(() => import("./routes/voice-assistant-route.tsx"), "voice-assistant", "live-call"),
      },
      {
        path: "phone-numbers",
        element: page(() => import("../features/phone-numbers/pages/phone-numbers-page.tsx"), "phone-numbers"),
      },
      {
        path: "phone-numbers/:phoneNumberId",
        element: page(() => import("../features/phone-numbers/pages/phone-number-detail-page.tsx"), "phone-numbers"),
      },
      { path: "functions", element: page(() => import("../features/functions/pages/functions-page.tsx"), "functions") },
      {
        path: "mcp-servers",
        element: page(() => import("../features/mcp-servers/pages/mcp-servers-page.tsx"), "mcp-servers"),
      },
      { path: "call-logs", element: page(() => import("../features/call-logs/pages/call-logs-page.tsx"), "call-logs") },
      {
        path: "call-logs/batch-call-id/:batchCallId",
        element: page(() => import("../features/call-logs/pages/call-logs-page.tsx"), "call-logs"),
      },
      {
        path: "knowledge-base",
        element: page(() => import("../features/knowledge-base/pages/knowledge-base-page.tsx"), "knowledge-base"),
      },
      { path: "voice-lab", element: page(() => import("../features/voice-lab/pages/voice-lab-page.tsx"), "voice-lab") },
      { path: "api-keys", element: page(() => import("../features/api-keys/pages/api-keys-page.tsx"), "api-keys") },
      {
        path: "integrations",
        element: page(() => import("./routes/integrations-route.tsx"), "integrations", "webhooks"),
      },
      {
        path: "batch-calls",
        element: page(() => import("../features/batch-calls/pages/batch-calls-page.tsx"), "batch-calls"),
      },
      {
        path: "batch-calls/:batchCallId",
        element: page(() => import("../features/batch-calls/pages/batch-call-detail-page.tsx"), "batch-calls"),
      },
      { path: "billing", element: page(() => import("../features/billing/pages/billing-page.tsx"), "billing") },
      {
        path: "call-widgets",
        element: page(() => import("../features/call-widgets/pages/call-widgets-page.tsx"), "call-widgets"),
      },
      {
        path: "call-widgets/:widgetId",
        element: page(() => import("../features/call-widgets/pages/call-widget-editor-page.tsx"), "call-widgets"),
      },
      {
        path: "enterprise-quota",
        element: page(() => import("../features/workspaces/pages/enterprise-quota-page.tsx")),
      },
      { path: "profile", element: page(() => import("../features/profile/pages/profile-page.tsx"), "profile") },
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
