import type { Workspace } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { chooseWorkspace, signupWorkspaces } from "./choose-workspace.ts";

const ws = (id: string, is_current = false): Workspace => ({
  id,
  name: id,
  role: "member",
  is_current,
  concurrency_limit: 1,
});

describe("chooseWorkspace (spec §4)", () => {
  it("prefers the saved last workspace, then the current one, then the first", () => {
    const list = [ws("a"), ws("b", true), ws("c")];
    expect(chooseWorkspace(list, "c")?.id).toBe("c");
    expect(chooseWorkspace(list, "gone")?.id).toBe("b");
    expect(chooseWorkspace([ws("a"), ws("c")], null)?.id).toBe("a");
    expect(chooseWorkspace([], "a")).toBeNull();
  });
});

describe("signupWorkspaces (spec §4)", () => {
  it("marks the matching workspace of the result's list as current", () => {
    const list = signupWorkspaces({ workspaces: [ws("a", true), ws("b")] }, "b");
    expect(list.map((w) => [w.id, w.is_current])).toEqual([
      ["a", false],
      ["b", true],
    ]);
  });

  it("builds one owner workspace from id and name when no list came", () => {
    expect(signupWorkspaces({ workspace_name: "Mine" }, "w1")).toEqual([
      { id: "w1", name: "Mine", role: "owner", is_current: true, concurrency_limit: 0 },
    ]);
  });
});
