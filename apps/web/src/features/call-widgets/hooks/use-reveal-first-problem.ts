import { type RefObject, useEffect, useRef } from "react";

/**
 * After a save that left fields in error (the form's own checks or the server's), scrolls the
 * first of them into view and focuses it: the editor is taller than a screen, and an error below
 * the fold reads as a save that did nothing. Once per save, so typing elsewhere is never interrupted.
 */
export function useRevealFirstProblem(form: RefObject<HTMLElement | null>, submitCount: number, hasErrors: boolean) {
  const revealed = useRef(0);
  useEffect(() => {
    if (!hasErrors || submitCount === revealed.current) return;
    revealed.current = submitCount;
    // MUI marks a field in error with aria-invalid; the DOM's order is the page's.
    const first = form.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    first?.scrollIntoView({ block: "center" });
    first?.focus({ preventScroll: true });
  }, [form, submitCount, hasErrors]);
}
