import { startTransition, useEffect, useState } from "react";

/**
 * How many of a view's `steps` are drawn yet: 0 at first, then one more after each commit, each
 * in an interruptible render of its own. A page whose parts are all styled and laid out for the
 * first time in one commit blocks the main thread for one long task (on the Lighthouse phone the
 * workflow builder's was 400 ms); drawn in steps, the browser paints and answers input between them.
 */
export function useDrawnInSteps(steps: number): number {
  const [drawn, setDrawn] = useState(0);
  useEffect(() => {
    if (drawn < steps) startTransition(() => setDrawn(drawn + 1));
  }, [drawn, steps]);
  return drawn;
}
