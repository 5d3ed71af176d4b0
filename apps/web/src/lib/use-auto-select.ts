import { useEffect, useRef } from "react";
import { firstIfMissing, type OptionItem } from "./provider-options.ts";

/**
 * Spec §4: when a provider's model or voice options arrive and do not contain the current value,
 * the first option is selected. It runs once per fetched list, so a value the user types or picks
 * later (a custom model name) is left alone.
 */
export function useAutoSelect(
  options: readonly OptionItem[] | undefined,
  current: string | undefined,
  select: (value: string) => void,
) {
  const handled = useRef<readonly OptionItem[] | undefined>(undefined);
  const latest = useRef({ current, select });
  latest.current = { current, select };
  useEffect(() => {
    if (!options || handled.current === options) return;
    handled.current = options;
    const next = firstIfMissing(latest.current.current, options);
    if (next !== null) latest.current.select(next);
  }, [options]);
}
