import Box from "@mui/material/Box";
import Container from "@mui/material/Container";
import type { Theme } from "@mui/material/styles";
import useMediaQuery from "@mui/material/useMediaQuery";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { Outlet } from "react-router";
import { CenteredSpinner } from "../components/centered-spinner.tsx";
import { installReadableFormMessages } from "../components/form-messages/install-readable-messages.ts";
import { useOpenedOnce } from "../components/opened-once.ts";
import { useWorkspaceId } from "../lib/auth-context.ts";
import { usePreferences } from "./customizer/preferences-context.tsx";
import { HorizontalNav } from "./layout/horizontal-nav.tsx";
import { Sidebar } from "./layout/sidebar.tsx";
import { Topbar } from "./layout/topbar.tsx";
import { Notifications } from "./notifications.tsx";

installReadableFormMessages();

// The appearance settings (sliders, switches, toggles) load when first opened, not with every page.
const CustomizerDrawer = lazy(() =>
  import("./customizer/customizer-drawer.tsx").then((module) => ({ default: module.CustomizerDrawer })),
);

/** The signed-in frame: navigation (vertical or horizontal), the topbar, and the page. */
export default function AppLayout() {
  const { preferences } = usePreferences();
  const workspaceId = useWorkspaceId();
  const isDesktop = useMediaQuery((theme: Theme) => theme.breakpoints.up("lg"));
  const [customizerOpen, setCustomizerOpen] = useState(false);
  const customizerMounted = useOpenedOnce(customizerOpen);
  // Server data is only cached for signed-in pages, so the sign-in pages load without it.
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } }),
  );
  const horizontal = preferences.horizontal && isDesktop;
  return (
    <QueryClientProvider client={queryClient}>
      <Notifications>
        <Box sx={{ display: "flex", minHeight: "100vh", bgcolor: "background.default" }}>
          {!horizontal && <Sidebar />}
          <Box sx={{ flexGrow: 1, minWidth: 0, display: "flex", flexDirection: "column" }}>
            <Topbar onOpenCustomizer={() => setCustomizerOpen(true)} />
            {horizontal && <HorizontalNav />}
            <Container
              component="main"
              maxWidth={preferences.layout === "boxed" ? "lg" : false}
              sx={{ py: 4, flexGrow: 1 }}
            >
              {/* Keyed by workspace: a switch remounts the page, so no figure, list, open editor or
                  previous-page placeholder of the old workspace stays on screen (issue 11). */}
              <Suspense key={workspaceId} fallback={<CenteredSpinner />}>
                <Outlet />
              </Suspense>
            </Container>
          </Box>
          {customizerMounted && (
            <Suspense fallback={null}>
              <CustomizerDrawer open={customizerOpen} onClose={() => setCustomizerOpen(false)} />
            </Suspense>
          )}
        </Box>
      </Notifications>
    </QueryClientProvider>
  );
}
