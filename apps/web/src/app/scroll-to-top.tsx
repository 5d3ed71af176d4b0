import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * Spec §2: the view scrolls smoothly to the top on every path change. Not on the first render: a
 * page just loaded is already at its top, and a scroll there still makes the browser lay the page
 * out at once, inside the app's first commit (a long task on a slow phone).
 */
export function ScrollToTop() {
  const { pathname } = useLocation();
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (shown.current !== null && shown.current !== pathname) window.scrollTo({ top: 0, behavior: "smooth" });
    shown.current = pathname;
  }, [pathname]);
  return null;
}
