import { type RefObject, useLayoutEffect, useState } from "react";

/**
 * The element's current width in CSS pixels (0 before it is known), following every resize.
 * `beforePaint` (the default) measures as soon as the element is in the page, for a layout that
 * depends on the width; that forces the page's layout inside React's commit. A width that only
 * decides an extra (a minimap) passes false and learns it from the ResizeObserver's first report,
 * in the browser's own layout pass.
 */
export function useElementWidth(ref: RefObject<HTMLElement | null>, options: { beforePaint?: boolean } = {}): number {
  const [width, setWidth] = useState(0);
  const beforePaint = options.beforePaint ?? true;
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (beforePaint) setWidth(element.getBoundingClientRect().width);
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(entry.contentRect.width);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, beforePaint]);
  return width;
}
