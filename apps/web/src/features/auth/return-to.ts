import { paths } from "../../config/paths.ts";

const KEY = "parley.return_to";
/** Set by a sign-out: the page the visitor was on is not a place they were headed to. */
const SIGNED_OUT = "parley.signed_out";

/** Only a path inside the app: never another origin ("//host", "https://…") nor a sign-in page again. */
export function isReturnPath(value: unknown): value is string {
  return (
    typeof value === "string" &&
    value.startsWith("/") &&
    !value.startsWith("//") &&
    !value.startsWith("/\\") &&
    !value.startsWith("/auth/") &&
    !value.startsWith(paths.resetPassword)
  );
}

/**
 * Remembers where a signed-out visitor was going (spec §2: "remembering the origin") for the length of
 * the tab's session, so it survives the trips to a single sign-on provider and back.
 */
export function rememberReturnTo(path: unknown) {
  try {
    if (isReturnPath(path) && !sessionStorage.getItem(SIGNED_OUT)) sessionStorage.setItem(KEY, path);
  } catch {
    // Storage can be unavailable (private modes); the visitor then lands on the home page.
  }
}

/**
 * After signing out, the next sign-in in this tab starts at the home page (spec §4), even though the
 * page signed out from bounces to sign-in "remembering the origin" on its way.
 */
export function forgetReturnTo() {
  try {
    sessionStorage.removeItem(KEY);
    sessionStorage.setItem(SIGNED_OUT, "1");
  } catch {
    // Nothing was remembered without storage either.
  }
}

/** Where to go after signing in (and forget it): the remembered origin, else the home page. */
export function takeReturnTo(): string {
  try {
    const path = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    sessionStorage.removeItem(SIGNED_OUT);
    return isReturnPath(path) ? path : paths.home;
  } catch {
    return paths.home;
  }
}
