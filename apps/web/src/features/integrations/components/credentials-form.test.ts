import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { integrationEntry } from "../../../testing/integration-entry.ts";
import { credentialDefaults, credentialsSchema } from "./credentials-form.ts";

const t = ((key: string) => key) as unknown as TFunction<"integrations">;

const integration = (provider: string, values: Record<string, string> = {}) => integrationEntry(provider, { values });

describe("credential forms", () => {
  it("require a new provider's fields and check URL fields", () => {
    const schema = credentialsSchema(integration("azure-openai"), t);
    expect(schema.safeParse({ api_key: "", endpoint: "" }).success).toBe(false);
    expect(schema.safeParse({ api_key: "k", endpoint: "ftp://x" }).success).toBe(false);
    expect(schema.safeParse({ api_key: "k", endpoint: "https://x.example" }).success).toBe(true);
  });

  it("let a stored secret stay blank, which keeps it", () => {
    const stored = integration("twilio", { account_sid: "AC1", auth_token: "abc…wxyz" });
    expect(credentialsSchema(stored, t).safeParse({ account_sid: "AC1", auth_token: "", base_url: "" }).success).toBe(
      true,
    );
  });

  it("start secrets empty and other fields with what is stored", () => {
    const stored = integration("twilio", { account_sid: "AC1", auth_token: "abc…wxyz" });
    expect(credentialDefaults(stored)).toEqual({ account_sid: "AC1", auth_token: "", base_url: "" });
  });

  it("allow an optional field to stay empty", () => {
    const schema = credentialsSchema(integration("openai-compatible"), t);
    expect(schema.safeParse({ base_url: "http://127.0.0.1:11434/v1", api_key: "" }).success).toBe(true);
  });

  it("ask for a stored secret again when a URL field moves to another host", () => {
    const stored = integration("openai-compatible", { base_url: "http://127.0.0.1:11434/v1", api_key: "…1234" });
    const schema = credentialsSchema(stored, t);
    expect(schema.safeParse({ base_url: "http://127.0.0.1:11434/api/v1", api_key: "" }).success).toBe(true);
    const moved = schema.safeParse({ base_url: "http://203.0.113.9:11434/v1", api_key: "" });
    expect(moved.success).toBe(false);
    expect(moved.error?.issues).toEqual([expect.objectContaining({ path: ["api_key"], message: "secretAgain" })]);
    expect(schema.safeParse({ base_url: "http://203.0.113.9:11434/v1", api_key: "sk-new" }).success).toBe(true);
  });

  it("ask for the secrets again when a vendor saved without a base URL is given one", () => {
    const stored = integration("twilio", { account_sid: "AC1", auth_token: "abc…wxyz" });
    const moved = credentialsSchema(stored, t).safeParse({
      account_sid: "AC1",
      auth_token: "",
      base_url: "http://127.0.0.5:8080",
    });
    expect(moved.success).toBe(false);
    expect(moved.error?.issues).toEqual([expect.objectContaining({ path: ["auth_token"], message: "secretAgain" })]);
  });
});
