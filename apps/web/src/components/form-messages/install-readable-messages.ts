// zod's own settings first: this module is what brings zod into the signed-in frame.
import "../../lib/zod-without-eval.ts";
import i18n from "i18next";
import { z } from "zod";
import { readableIssue } from "./readable-issue.ts";

/**
 * Makes every schema without a message of its own speak the interface's language (form-messages
 * namespace). Installed by the signed-in layout, where the forms that parse with zod live; the
 * sign-in page checks its few fields by hand and never loads zod.
 */
export function installReadableFormMessages() {
  void i18n.loadNamespaces("form-messages");
  z.config({
    customError: (issue) => readableIssue(issue, (key, options) => i18n.t(key, { ns: "form-messages", ...options })),
  });
}
