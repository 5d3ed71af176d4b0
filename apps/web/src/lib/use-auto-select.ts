import { useEffect, useRef } from "react";
import { firstIfEmpty, firstIfMissing, type OptionItem } from "./provider-options.ts";

/**
 * When a provider's model or voice options arrive, picks the first one. It runs once per fetched
 * list, so a value the user types or picks later is left alone. With `keepUnlisted` only an empty
 * field is filled: a saved value the list does not know (a local server's model, a pasted voice id)
 * is the user's choice and is never silently replaced (issue 11); without it, spec §4's rule holds
 * and a value missing from the list is replaced.
 */
export function useAutoSelect(
  options: readonly OptionItem[] | undefined,
  current: string | undefined,
  select: (value: string) => void,
  { keepUnlisted = false }: { keepUnlisted?: boolean } = {},
) {
  const handled = useRef<readonly OptionItem[] | undefined>(undefined);
  const latest = useRef({ current, select, keepUnlisted });
  latest.current = { current, select, keepUnlisted };
  useEffect(() => {
    if (!options || handled.current === options) return;
    handled.current = options;
    const pick = latest.current.keepUnlisted ? firstIfEmpty : firstIfMissing;
    const next = pick(latest.current.current, options);
    if (next !== null) latest.current.select(next);
  }, [options]);
}
