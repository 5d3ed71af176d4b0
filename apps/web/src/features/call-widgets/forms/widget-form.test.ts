import { DEFAULT_WIDGET_APPEARANCE, WIDGET_ORIGIN_TEXTS } from "@parley/contract";
import { describe, expect, it } from "vitest";
import {
  editorFieldOf,
  previewAppearance,
  previewDocument,
  scriptUrlOf,
  snippetOf,
  WidgetEditorForm,
} from "./widget-form.ts";

const base = {
  name: "Shop",
  assistant_id: "7d1e0c1e-5a0b-4f7e-9d55-0a3c2f6b1e11",
  enabled: true,
  appearance: (({ background_color: _, ...rest }) => rest)(DEFAULT_WIDGET_APPEARANCE),
  custom_background: false,
  background_color: "#ffffff",
  limits: { max_concurrent_calls: "3", calls_per_visitor_per_hour: "4" },
};

describe("the widget editor form", () => {
  it("reads allowed origins one per line (or comma), dropping trailing slashes and repeats", () => {
    const parsed = WidgetEditorForm.parse({
      ...base,
      origins_text: "https://a.example\nhttps://b.example/, https://a.example\n\n",
    });
    expect(parsed.origins_text).toEqual(["https://a.example", "https://b.example"]);
    expect(parsed.limits).toEqual({ max_concurrent_calls: 3, calls_per_visitor_per_hour: 4 });
  });

  it("names the line that is not an origin", () => {
    const result = WidgetEditorForm.safeParse({ ...base, origins_text: "https://a.example/shop" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/^https:\/\/a\.example\/shop: /);
  });

  it("refuses a site with a space inside as one site instead of splitting it into two", () => {
    const result = WidgetEditorForm.safeParse({ ...base, origins_text: "https://a.example https://b.example" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(`https://a.example https://b.example: ${WIDGET_ORIGIN_TEXTS.spaces}`);
  });

  it("refuses more sites than the API keeps", () => {
    const many = Array.from({ length: 51 }, (_, i) => `https://s${i}.example`).join("\n");
    const result = WidgetEditorForm.safeParse({ ...base, origins_text: many });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["origins_text"]);
  });

  it("puts the API's complaints beside the editor's fields", () => {
    expect(editorFieldOf("allowed_origins.3")).toBe("origins_text");
    expect(editorFieldOf("appearance.background_color")).toBe("background_color");
    expect(editorFieldOf("appearance.button_label")).toBe("appearance.button_label");
    expect(editorFieldOf("limits.max_concurrent_calls")).toBe("limits.max_concurrent_calls");
    expect(editorFieldOf("public_key")).toBeUndefined();
  });

  it("refuses a wildcard origin, saying so", () => {
    const result = WidgetEditorForm.safeParse({ ...base, origins_text: "https://a.example\nhttps://*.example.com" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(`https://*.example.com: ${WIDGET_ORIGIN_TEXTS.wildcard}`);
  });

  it("reads an empty concurrent-calls field as the default share, and refuses zero", () => {
    const parsed = WidgetEditorForm.parse({
      ...base,
      origins_text: "",
      limits: { ...base.limits, max_concurrent_calls: "" },
    });
    expect(parsed.limits.max_concurrent_calls).toBeNull();
    const zero = WidgetEditorForm.safeParse({
      ...base,
      origins_text: "",
      limits: { ...base.limits, max_concurrent_calls: "0" },
    });
    expect(zero.success).toBe(false);
    expect(zero.error?.issues[0]?.path).toEqual(["limits", "max_concurrent_calls"]);
  });

  it("previews what is typed, and the saved look while a field is invalid", () => {
    const typed = { ...base, origins_text: "", appearance: { ...base.appearance, button_label: "Ring us" } };
    expect(previewAppearance(typed, DEFAULT_WIDGET_APPEARANCE).button_label).toBe("Ring us");
    const broken = { ...typed, appearance: { ...typed.appearance, primary_color: "green" } };
    expect(previewAppearance(broken, DEFAULT_WIDGET_APPEARANCE)).toEqual(DEFAULT_WIDGET_APPEARANCE);
  });
});

describe("the snippet and the preview document", () => {
  it("is one script tag with the absolute script address and the key", () => {
    const url = scriptUrlOf("/api/v1", "https://parley.example.com/call-widgets/1");
    expect(snippetOf(url, "pw_abc")).toBe(
      '<script src="https://parley.example.com/api/v1/widget/embed.js" data-key="pw_abc" async></script>',
    );
  });

  it("escapes what the user typed inside the preview's attributes", () => {
    const html = previewDocument(
      "https://p.example/x.js",
      "pw_k",
      { ...DEFAULT_WIDGET_APPEARANCE, button_label: '"><img>' },
      "Site",
    );
    expect(html).not.toContain('"><img>');
    expect(html).toContain("&quot;&gt;&lt;img&gt;");
  });
});
