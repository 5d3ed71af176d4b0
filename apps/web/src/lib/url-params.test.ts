import { describe, expect, it } from "vitest";
import { pageParam, patchParams, validParams } from "./url-params.ts";

describe("list URL parameters", () => {
  it("set what the patch gives, remove what it empties, and keep the rest", () => {
    const next = patchParams(new URLSearchParams("status=done&page=3&search=a"), {
      page: undefined,
      search: "",
      sort: "name",
    });
    expect(next.toString()).toBe("status=done&sort=name");
  });

  it("read the page as a whole number from 1, whatever the URL says", () => {
    expect(pageParam(new URLSearchParams(""))).toBe(1);
    expect(pageParam(new URLSearchParams("page=4"))).toBe(4);
    expect(pageParam(new URLSearchParams("page=2.7"))).toBe(2);
    expect(pageParam(new URLSearchParams("page=-3"))).toBe(1);
    expect(pageParam(new URLSearchParams("page=abc"))).toBe(1);
  });

  it("leave out the values the list would refuse", () => {
    const params = new URLSearchParams("status=bogus&channel=web&other=x");
    const found = validParams(
      params,
      ["status", "channel", "search"],
      (key, value) => key !== "status" || value === "done",
    );
    expect(found).toEqual({ channel: "web" });
  });
});
