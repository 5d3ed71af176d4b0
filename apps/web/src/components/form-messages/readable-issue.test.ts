import { describe, expect, it } from "vitest";
import { z } from "zod";
import en from "./locales/en.json";
import { readableIssue } from "./readable-issue.ts";

// English strings with {{name}} filled in, as i18next would.
const t = (key: string, options: Record<string, unknown> = {}) =>
  String(en[key as keyof typeof en]).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(options[name]));

const messageOf = (schema: z.ZodType, input: unknown) =>
  schema.safeParse(input, { error: (issue) => readableIssue(issue, t) }).error?.issues[0]?.message;

describe("readable form messages", () => {
  it("say what to do instead of zod's own text", () => {
    expect(messageOf(z.object({ token: z.string().min(16) }), { token: "abc" })).toBe("Use at least 16 characters.");
    expect(messageOf(z.object({ n: z.number() }), {})).toBe("This field is required.");
    expect(messageOf(z.number(), "x")).toBe("Enter a number.");
    expect(messageOf(z.number().int().min(1).max(600), 900)).toBe("Enter 600 or less.");
    expect(messageOf(z.string().min(1), "")).toBe("This field is required.");
    expect(messageOf(z.email(), "someone")).toBe("Enter a valid email address.");
    expect(messageOf(z.enum(["a", "b"]), "c")).toBe("Choose one of the options.");
  });

  it("keep a message the schema gives itself", () => {
    expect(messageOf(z.string().min(1, "Name is required"), "")).toBe("Name is required");
  });
});
