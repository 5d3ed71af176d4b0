import { useState } from "react";

/**
 * True from the first time `open` is true on. A dialog or drawer whose code is loaded lazily is
 * mounted from its first opening rather than with the page (its code is not on the page's first
 * load), and stays mounted after closing so its closing transition still plays.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  // Derived state, set during render as React documents for it: no extra commit with a stale value.
  if (open && !opened) setOpened(true);
  return opened || open;
}
