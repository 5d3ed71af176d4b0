import { beforeEach, describe, expect, it, vi } from "vitest";

const store = new Map<string, string>();
vi.stubGlobal("localStorage", {
  getItem: (k: string) => store.get(k) ?? null,
  setItem: (k: string, v: string) => store.set(k, v),
  removeItem: (k: string) => store.delete(k),
});

const { prerenderedUse } = await import("./prerendered-page.ts");

/** An unsigned token with the claims the app reads; the server would verify the signature. */
function token(expiresInSeconds: number) {
  const claims = { id: "u1", username: "ada", is_superuser: false, tier_id: null, workspace_id: "w1" };
  const payload = btoa(JSON.stringify({ ...claims, exp: Math.floor(Date.now() / 1000) + expiresInSeconds }));
  return `e30.${payload.replace(/=+$/, "")}.sig`;
}

/** #root as the build writes it for a page pre-rendered at `path` for `session`. */
const root = (path: string, session: string) => ({ dataset: { prerendered: path, session } }) as unknown as HTMLElement;

describe("what a page load does with the pre-rendered markup", () => {
  beforeEach(() => store.clear());

  it("hydrates the sign-in page for a visitor with no session and the default look", () => {
    expect(prerenderedUse(root("/auth/login", "visitor"), "/auth/login")).toBe("hydrate");
  });

  it("draws afresh for a visitor whose stored look or session would draw another page", () => {
    store.set("parley.preferences", JSON.stringify({ mode: "dark" }));
    expect(prerenderedUse(root("/auth/login", "visitor"), "/auth/login")).toBeNull();
    store.clear();
    store.set("access_token", token(600));
    expect(prerenderedUse(root("/auth/login", "visitor"), "/auth/login")).toBeNull();
  });

  it("shows the signed-in frame only to a user with a usable token and the default look", () => {
    const frame = root("/assistants", "signed-in");
    expect(prerenderedUse(frame, "/assistants")).toBeNull();
    store.set("access_token", token(-60));
    expect(prerenderedUse(frame, "/assistants"), "an expired token may not be renewed").toBeNull();
    store.set("access_token", token(600));
    expect(prerenderedUse(frame, "/assistants")).toBe("frame");
    store.set("parley.preferences", JSON.stringify({ collapsed: true }));
    expect(prerenderedUse(frame, "/assistants"), "a collapsed sidebar is drawn differently").toBeNull();
    store.set("parley.preferences", JSON.stringify({ mobileSidebar: true, sidebarHover: true }));
    expect(prerenderedUse(frame, "/assistants"), "transient flags change nothing").toBe("frame");
  });

  it("shows a frame drawn for a path pattern on any page of it", () => {
    store.set("access_token", token(600));
    const frame = root("/workflows/:workflowId", "signed-in");
    expect(prerenderedUse(frame, "/workflows/0b6c2f7e-1d7a-4d51-9f0e-7a1b2c3d4e5f")).toBe("frame");
    expect(prerenderedUse(frame, "/workflows")).toBeNull();
  });

  it("uses nothing when the markup was drawn for another path or for nobody", () => {
    store.set("access_token", token(600));
    expect(prerenderedUse(root("/assistants", "signed-in"), "/assistants/abc")).toBeNull();
    expect(prerenderedUse(root("/assistants", "someone"), "/assistants")).toBeNull();
    expect(prerenderedUse({ dataset: {} } as unknown as HTMLElement, "/assistants")).toBeNull();
  });
});
