import { useEffect } from "react";
import { useLocation } from "react-router";

/** Spec §2: the view scrolls smoothly to the top on every path change. */
export function ScrollToTop() {
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect is meant to run on every path change.
  useEffect(() => {
    window.scrollTo({ top: 0, behavior: "smooth" });
  }, [pathname]);
  return null;
}
