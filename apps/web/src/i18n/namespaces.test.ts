import { describe, expect, it } from "vitest";
import i18n from "./index.ts";

describe("translation namespaces", () => {
  it("loads a feature's strings on demand", async () => {
    await i18n.loadNamespaces("call-logs");
    expect(i18n.t("title", { ns: "call-logs" })).toBe("Call logs");
  });

  it("loads a shared widget's strings from components/<name>/locales", async () => {
    await i18n.loadNamespaces("voice-preview");
    expect(i18n.t("play", { ns: "voice-preview" })).toBe("Preview voice");
  });

  it("loads another language's namespace when the language changes", async () => {
    await i18n.changeLanguage("fr");
    await i18n.loadNamespaces("live-call");
    expect(i18n.t("start", { ns: "live-call" })).toBe("Démarrer l'appel");
    await i18n.changeLanguage("en");
  });
});

describe("shared strings in a feature namespace", () => {
  it("fall back to the shell's translation namespace", async () => {
    await i18n.loadNamespaces("call-logs");
    expect(i18n.t("common.cancel", { ns: "call-logs" })).toBe("Cancel");
  });
});
