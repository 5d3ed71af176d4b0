import type { z } from "zod";

type Translate = (key: string, options?: Record<string, unknown>) => string;

const isEmpty = (input: unknown) => input === undefined || input === null || input === "";

/**
 * A sentence a person would write for a schema's complaint about one field ("Use at least 16
 * characters."), instead of zod's own text ("Too small: expected string to have >=16 characters").
 * Messages a schema sets itself are kept; undefined leaves zod's text for the rare rest.
 */
export function readableIssue(issue: z.core.$ZodRawIssue, t: Translate): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (isEmpty(issue.input)) return t("required");
      return issue.expected === "number" || issue.expected === "int" ? t("number") : t("invalid");
    case "too_small": {
      const count = Number(issue.minimum);
      if (issue.origin === "string") return count <= 1 ? t("required") : t("tooShort", { count });
      if (issue.origin === "array" || issue.origin === "set") return t("tooFew", { count });
      return t(issue.inclusive === false ? "above" : "atLeast", { value: count });
    }
    case "too_big": {
      const count = Number(issue.maximum);
      if (issue.origin === "string") return t("tooLong", { count });
      if (issue.origin === "array" || issue.origin === "set") return t("tooMany", { count });
      return t(issue.inclusive === false ? "below" : "atMost", { value: count });
    }
    case "invalid_format":
      if (isEmpty(issue.input)) return t("required");
      if (issue.format === "email") return t("email");
      if (issue.format === "url") return t("url");
      return t("invalid");
    case "not_multiple_of":
      return t("number");
    case "invalid_value":
    case "invalid_union":
      return isEmpty(issue.input) ? t("required") : t("choose");
    default:
      return undefined;
  }
}
