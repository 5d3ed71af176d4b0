import { useTranslation } from "react-i18next";
import { errorText } from "../components/error-text.ts";
import { useSnackbar } from "./snackbar.ts";

/**
 * The notices a screen shows after an action: what was done, or why it failed (an API error's own
 * text, else the shell's "failed" text). Each takes one argument, so it can be a callback as it is.
 */
export function useNotice() {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  /** Why it failed; `fallback` when the error has no text of its own. */
  const failureWith = (fallback: string) => (error: unknown) => {
    enqueueSnackbar(errorText(error, fallback), { variant: "error" });
  };
  const failure = failureWith(t("common.failed"));
  const success = (text: string) => {
    enqueueSnackbar(text, { variant: "success" });
  };
  /** Does the action and says so; resolves true when it succeeded, false when it failed (and said why). */
  const run = async (action: Promise<unknown>, done: string, fallback?: string) => {
    try {
      await action;
      success(done);
      return true;
    } catch (error) {
      (fallback ? failureWith(fallback) : failure)(error);
      return false;
    }
  };
  return {
    success,
    failure,
    failureWith,
    run,
    /** A failure the screen words itself (no error object to read). */
    error: (text: string) => {
      enqueueSnackbar(text, { variant: "error" });
    },
    info: (text: string) => {
      enqueueSnackbar(text, { variant: "info" });
    },
  };
}
