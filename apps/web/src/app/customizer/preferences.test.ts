import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { DEFAULT_PREFERENCES, loadPreferences, readPreferences, savePreferences } from "./preferences.ts";

/** The zod schema the hand-written check replaced (kept out of the app's first load): the reference. */
const Reference = z.object({
  direction: z.enum(["ltr", "rtl"]).default("ltr"),
  mode: z.enum(["light", "dark"]).default("light"),
  themeName: z.enum(["green", "blue", "purple", "orange", "teal", "red"]).default("green"),
  sidebarWidth: z.number().default(270),
  miniSidebarWidth: z.number().default(87),
  topbarHeight: z.number().default(70),
  layout: z.enum(["boxed", "full"]).default("boxed"),
  collapsed: z.boolean().default(false),
  sidebarHover: z.boolean().default(false),
  mobileSidebar: z.boolean().default(false),
  horizontal: z.boolean().default(false),
  language: z.string().default("en"),
  cardShadow: z.boolean().default(true),
  borderRadius: z.number().min(0).max(24).default(5),
});

const referenceOf = (stored: unknown) => {
  const parsed = Reference.safeParse(stored);
  return parsed.success ? parsed.data : null;
};

describe("stored interface preferences", () => {
  it("fill in every default the schema had", () => {
    expect(readPreferences({})).toEqual(Reference.parse({}));
    expect(DEFAULT_PREFERENCES).toEqual(Reference.parse({}));
  });

  it("accept and refuse exactly what the former zod schema did", () => {
    const cases: unknown[] = [
      { mode: "dark", direction: "rtl", language: "ar", borderRadius: 0 },
      { themeName: "teal", borderRadius: 24, horizontal: true, unknown: "dropped" },
      { borderRadius: 25 },
      { borderRadius: -1 },
      { mode: "dim" },
      { mode: null },
      { sidebarWidth: "270" },
      { collapsed: 1 },
      { language: 5 },
      [],
      null,
      "dark",
      7,
    ];
    for (const stored of cases) expect(readPreferences(stored), JSON.stringify(stored)).toEqual(referenceOf(stored));
  });

  describe("in localStorage", () => {
    beforeEach(() => {
      const items = new Map<string, string>();
      vi.stubGlobal("localStorage", {
        getItem: (key: string) => items.get(key) ?? null,
        setItem: (key: string, value: string) => items.set(key, value),
      });
      return () => vi.unstubAllGlobals();
    });

    it("come back as saved, without the transient flags", () => {
      savePreferences({ ...DEFAULT_PREFERENCES, mode: "dark", sidebarHover: true, mobileSidebar: true });
      expect(loadPreferences()).toEqual({ ...DEFAULT_PREFERENCES, mode: "dark" });
    });

    it("fall back to the defaults when unreadable or invalid", () => {
      localStorage.setItem("parley.preferences", "{not json");
      expect(loadPreferences()).toEqual(DEFAULT_PREFERENCES);
      localStorage.setItem("parley.preferences", JSON.stringify({ mode: "dark", borderRadius: 99 }));
      expect(loadPreferences()).toEqual(DEFAULT_PREFERENCES);
    });
  });
});
