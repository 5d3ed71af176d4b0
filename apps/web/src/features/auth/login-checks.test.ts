import { LoginForm, MagicLinkRequest } from "@parley/contract";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import en from "../../components/form-messages/locales/en.json";
import { readableIssue } from "../../components/form-messages/readable-issue.ts";
import { checkLogin, checkMagicLink } from "./login-checks.ts";

const tooLong = (count: number) => en.tooLong.replace("{{count}}", String(count));
const t = (key: string, options: Record<string, unknown> = {}) =>
  String(en[key as keyof typeof en]).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(options[name]));

/** What the page showed when it parsed with the contract's schema: per field, its first message. */
function schemaVerdict(schema: z.ZodType, input: unknown) {
  const parsed = schema.safeParse(input, { error: (issue) => readableIssue(issue, t) });
  if (parsed.success) return { ok: true, values: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return { ok: false, errors };
}

const long = (length: number) => "a".repeat(length);

describe("the sign-in page's own checks", () => {
  it("say and send what the contract's LoginForm does", () => {
    const cases = [
      { username: "admin", password: "secret" },
      { username: "  admin@example.com ", password: " spaced " },
      { username: "", password: "" },
      { username: "   ", password: "x" },
      { username: "admin", password: "" },
      { username: long(254), password: long(128) },
      { username: long(255), password: long(129) },
      { username: ` ${long(254)} `, password: "x" },
    ];
    for (const input of cases) {
      expect(checkLogin(input, tooLong), JSON.stringify(input)).toEqual(schemaVerdict(LoginForm, input));
    }
  });

  it("say and send what the contract's MagicLinkRequest does", () => {
    const emails = [
      "someone@example.com",
      "  Some.One+tag@Example.COM ",
      "",
      "   ",
      "someone",
      "someone@",
      "someone@example",
      "some..one@example.com",
      ".someone@example.com",
      "someone.@example.com",
      "o'brien@example.co.uk",
      "someone@-example.com",
      "someone@exa_mple.com",
      "someone@example.c",
      `${long(243)}@example.com`,
      `${long(244)}@example.com`,
    ];
    for (const email of emails) {
      expect(checkMagicLink({ email }, tooLong), email).toEqual(schemaVerdict(MagicLinkRequest, { email }));
    }
  });
});
