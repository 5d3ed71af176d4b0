/**
 * Whether this document is being left (navigation, reload, tab close). Requests the browser aborts
 * then fail like network errors; they say nothing about the session and must not end it.
 */
let leaving = false;

if (typeof window !== "undefined") {
  window.addEventListener("pagehide", () => {
    leaving = true;
  });
  window.addEventListener("beforeunload", () => {
    leaving = true;
  });
  // A page restored from the back/forward cache is live again.
  window.addEventListener("pageshow", () => {
    leaving = false;
  });
}

export const isLeavingPage = () => leaving;
