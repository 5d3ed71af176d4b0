import { describe, expect, it } from "vitest";
import {
  CreateWorkspaceBody,
  InviteBody,
  LoginForm,
  MagicLinkRequest,
  TierBody,
  UpdateWorkspaceBody,
} from "./index.ts";

describe("contract schemas", () => {
  it("normalises emails to lower case and refuses malformed ones", () => {
    expect(MagicLinkRequest.parse({ email: "  Ada@Example.COM " }).email).toBe("ada@example.com");
    expect(MagicLinkRequest.safeParse({ email: "ada" }).success).toBe(false);
  });

  it("needs both login fields", () => {
    expect(LoginForm.safeParse({ username: "ada" }).success).toBe(false);
    expect(LoginForm.parse({ username: " ada ", password: "x" }).username).toBe("ada");
  });

  it("defaults an invitation to member and accepts only owner or member", () => {
    expect(InviteBody.parse({ email: "a@b.co" }).role).toBe("member");
    expect(InviteBody.safeParse({ email: "a@b.co", role: "admin" }).success).toBe(false);
  });

  it("treats an empty billing email as none", () => {
    expect(CreateWorkspaceBody.parse({ name: "Ops", billing_email: "" }).billing_email).toBeUndefined();
    expect(UpdateWorkspaceBody.parse({ billing_email: "" }).billing_email).toBeNull();
    expect(UpdateWorkspaceBody.safeParse({ concurrency_limit: -1 }).success).toBe(false);
  });

  it("refuses negative tier limits and prices", () => {
    const tier = {
      name: "Pro",
      max_assistants: 1,
      minutes_per_month: 1,
      concurrent_calls: 1,
      max_workspaces: 1,
      price: 10,
    };
    expect(TierBody.safeParse(tier).success).toBe(true);
    expect(TierBody.safeParse({ ...tier, price: -1 }).success).toBe(false);
    expect(TierBody.safeParse({ ...tier, max_assistants: 1.5 }).success).toBe(false);
  });
});
