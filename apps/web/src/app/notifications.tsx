import { lazy, type ReactNode, Suspense, useSyncExternalStore } from "react";
import { noticesWanted } from "../lib/snackbar.ts";

const NoticesProvider = lazy(() => import("./notices-provider.tsx"));

/**
 * Success and error notices (spec §8) for the signed-in frame. The sign-in pages show their
 * messages inline, so notistack stays out of their bundle; signed-in pages load it with their
 * first notice (lib/snackbar.ts), not with the page.
 */
export function Notifications({ children }: { children: ReactNode }) {
  // The pre-rendered frame (a server render) shows no notice.
  const wanted = useSyncExternalStore(noticesWanted.subscribe, noticesWanted.get, () => false);
  return (
    <>
      {children}
      {wanted && (
        <Suspense fallback={null}>
          <NoticesProvider />
        </Suspense>
      )}
    </>
  );
}
