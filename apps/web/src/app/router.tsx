import { Suspense } from "react";
import { createBrowserRouter, matchRoutes, Navigate, Outlet, type RouteObject } from "react-router";
import { CenteredSpinner } from "../components/centered-spinner.tsx";
import { paths } from "../config/paths.ts";
import i18n from "../i18n/index.ts";
import { lazyWithPreload } from "../lib/lazy-with-preload.ts";
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
/** What a route can do ahead of rendering: fetch its code (and strings). */
interface RouteHandle {
  preload?: () => Promise<void>;
}

/** A lazily loaded page: its element, and its preload as the route's handle (preloadRoute). */
const page = (load: () => Promise<{ default: React.ComponentType }>, ...strings: string[]) => {
  const Page = lazyWithPreload(withStrings(load, strings));
  return { element: <Page />, handle: { preload: Page.preload } satisfies RouteHandle };
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

const AppLayout = lazyWithPreload(() => import("./app-layout.tsx"));

const routes: RouteObject[] = [
  {
    path: "/auth",
    element: <Frame guard="none" />,
    children: [
      { path: "404", ...page(() => import("../features/auth/pages/not-found-page.tsx")) },
      {
        element: <Frame guard="visitor" />,
        children: [
          {
            path: "login",
            ...page(() => import("../features/auth/pages/login-page.tsx"), "auth", "form-messages"),
          },
          { path: "signup", element: <Navigate to={paths.login} replace /> },
          { path: "signup-sso", ...page(() => import("../features/auth/pages/signup-sso-page.tsx")) },
          { path: "sso-callback", ...page(() => import("../features/auth/pages/sso-callback-page.tsx")) },
          {
            path: "magic-link-callback",
            ...page(() => import("../features/auth/pages/magic-link-callback-page.tsx")),
          },
          {
            path: "complete-signup-magic-link",
            ...page(() => import("../features/auth/pages/complete-signup-page.tsx")),
          },
          { path: "*", element: <Navigate to={paths.root} replace /> },
        ],
      },
    ],
  },
  {
    path: paths.resetPassword,
    element: <Frame guard="visitor" />,
    children: [{ index: true, ...page(() => import("../features/auth/pages/reset-password-page.tsx")) }],
  },
  {
    path: "/",
    handle: { preload: AppLayout.preload } satisfies RouteHandle,
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
      { path: "home", ...page(() => import("../features/home/pages/home-page.tsx"), "home") },
      {
        path: "assistants",
        ...page(() => import("../features/assistants/pages/assistants-page.tsx"), "assistants"),
      },
      {
        path: "assistants/:assistantId",
        ...page(() => import("./routes/assistant-detail-route.tsx"), "assistants", "live-call"),
      },
      {
        path: "assistants/:assistantId/workflow",
        ...page(() => import("../features/workflows/pages/assistant-workflow-page.tsx"), "workflows"),
      },
      {
        path: "assistants/:assistantId/tests",
        ...page(() => import("../features/test-suites/pages/assistant-tests-page.tsx"), "test-suites"),
      },
      {
        path: "assistants/:assistantId/tests/:suiteId",
        ...page(() => import("../features/test-suites/pages/test-suite-page.tsx"), "test-suites"),
      },
      {
        path: "assistants/:assistantId/tests/:suiteId/runs/:runId",
        ...page(() => import("../features/test-suites/pages/test-run-page.tsx"), "test-suites"),
      },
      { path: "tests", ...page(() => import("../features/test-suites/pages/tests-page.tsx"), "test-suites") },
      { path: "workflows", ...page(() => import("../features/workflows/pages/workflows-page.tsx"), "workflows") },
      {
        path: "workflows/:workflowId",
        ...page(() => import("../features/workflows/pages/workflow-builder-page.tsx"), "workflows"),
      },
      {
        path: "assistant",
        ...page(() => import("./routes/voice-assistant-route.tsx"), "voice-assistant", "live-call"),
      },
      {
        path: "phone-numbers",
        ...page(() => import("../features/phone-numbers/pages/phone-numbers-page.tsx"), "phone-numbers"),
      },
      {
        path: "phone-numbers/:phoneNumberId",
        ...page(() => import("../features/phone-numbers/pages/phone-number-detail-page.tsx"), "phone-numbers"),
      },
      { path: "functions", ...page(() => import("../features/functions/pages/functions-page.tsx"), "functions") },
      {
        path: "mcp-servers",
        ...page(() => import("../features/mcp-servers/pages/mcp-servers-page.tsx"), "mcp-servers"),
      },
      { path: "squads", ...page(() => import("../features/squads/pages/squads-page.tsx"), "squads") },
      { path: "call-logs", ...page(() => import("../features/call-logs/pages/call-logs-page.tsx"), "call-logs") },
      {
        path: "call-logs/batch-call-id/:batchCallId",
        ...page(() => import("../features/call-logs/pages/call-logs-page.tsx"), "call-logs"),
      },
      {
        path: "knowledge-base",
        ...page(() => import("../features/knowledge-base/pages/knowledge-base-page.tsx"), "knowledge-base"),
      },
      { path: "voice-lab", ...page(() => import("../features/voice-lab/pages/voice-lab-page.tsx"), "voice-lab") },
      { path: "api-keys", ...page(() => import("../features/api-keys/pages/api-keys-page.tsx"), "api-keys") },
      { path: "privacy", ...page(() => import("../features/privacy/pages/privacy-page.tsx"), "privacy") },
      {
        path: "integrations",
        ...page(() => import("./routes/integrations-route.tsx"), "integrations", "webhooks"),
      },
      {
        path: "batch-calls",
        ...page(() => import("../features/batch-calls/pages/batch-calls-page.tsx"), "batch-calls"),
      },
      {
        path: "batch-calls/:batchCallId",
        ...page(() => import("../features/batch-calls/pages/batch-call-detail-page.tsx"), "batch-calls"),
      },
      { path: "billing", ...page(() => import("../features/billing/pages/billing-page.tsx"), "billing") },
      {
        path: "analytics",
        ...page(() => import("../features/analytics/pages/analytics-page.tsx"), "analytics", "home", "call-logs"),
      },
      {
        path: "call-widgets",
        ...page(() => import("../features/call-widgets/pages/call-widgets-page.tsx"), "call-widgets"),
      },
      {
        path: "call-widgets/:widgetId",
        ...page(() => import("../features/call-widgets/pages/call-widget-editor-page.tsx"), "call-widgets"),
      },
      {
        path: "enterprise-quota",
        ...page(() => import("../features/workspaces/pages/enterprise-quota-page.tsx")),
      },
      { path: "profile", ...page(() => import("../features/profile/pages/profile-page.tsx"), "profile") },
      {
        path: "admin",
        element: (
          <RequireSuperuser>
            <Outlet />
          </RequireSuperuser>
        ),
        children: [
          { index: true, ...page(() => import("../features/admin/pages/admin-dashboard-page.tsx"), "admin") },
          { path: "users", ...page(() => import("../features/admin/pages/admin-users-page.tsx"), "admin") },
          { path: "tiers", ...page(() => import("../features/admin/pages/admin-tiers-page.tsx"), "admin") },
          { path: "quotas", ...page(() => import("../features/admin/pages/admin-quotas-page.tsx"), "admin") },
          { path: "nodes", ...page(() => import("../features/admin/pages/admin-nodes-page.tsx"), "admin") },
          { path: "*", element: <Navigate to={paths.admin} replace /> },
        ],
      },
      { path: "*", element: <Navigate to={paths.root} replace /> },
    ],
  },
];

export const router = createBrowserRouter(routes);

/**
 * Fetches the code and strings of every lazy part of the page at `pathname` (the signed-in frame's
 * layout, the page), so that its first render draws it at once rather than a spinner first.
 */
export async function preloadRoute(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(matches.map(({ route }) => (route.handle as RouteHandle | undefined)?.preload?.()));
}
