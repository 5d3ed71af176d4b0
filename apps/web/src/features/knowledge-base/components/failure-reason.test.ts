import type { KnowledgeDocument } from "@parley/contract";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import ar from "../locales/ar.json";
import de from "../locales/de.json";
import en from "../locales/en.json";
import es from "../locales/es.json";
import fr from "../locales/fr.json";
import hi from "../locales/hi.json";
import pt from "../locales/pt.json";
import { documentReason } from "./failure-reason.ts";

const document = (changes: Partial<KnowledgeDocument>): KnowledgeDocument => ({
  id: "d1",
  name: "manual.pdf",
  kind: "pdf",
  status: "failed",
  error_message: "The PDF has 20,000 pages; the knowledge base reads at most 2,000 pages from one file.",
  error_code: "too_many_pages",
  size_bytes: 6_000_000,
  chunk_count: 0,
  url: null,
  intensity: null,
  pages_done: 0,
  pages_found: 0,
  agents: [],
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
  ...changes,
});

const LOCALES = { ar, de, en, es, fr, hi, pt };

async function translator(language: keyof typeof LOCALES) {
  const i18n = i18next.createInstance();
  await i18n.init({ lng: language, resources: { [language]: { "knowledge-base": LOCALES[language] } } });
  return i18n.getFixedT(language, "knowledge-base");
}

describe("documentReason", () => {
  it("says why a document failed in the reader's language, with the limit's figure", async () => {
    expect(documentReason(await translator("en"), document({}), "en")).toEqual({
      sentence: "This PDF has more than 2,000 pages, more than one file may have. Split it into smaller files.",
      detail: null,
    });
    expect(documentReason(await translator("de"), document({}), "de")?.sentence).toContain("2.000");
  });

  it("keeps the server's sentence for an unreadable file and for a ready document's note", async () => {
    const t = await translator("en");
    const corrupt = document({ error_code: "unreadable", error_message: "The PDF could not be read (bad XRef)." });
    expect(documentReason(t, corrupt, "en")?.sentence).toBe("The PDF could not be read (bad XRef).");
    const note = document({ status: "ready", error_code: null, error_message: "Embeddings failed." });
    expect(documentReason(t, note, "en")?.sentence).toBe("Embeddings failed.");
  });

  it("frames a crawl that could not reach its site in the reader's language, keeping the server's detail", async () => {
    const detail = "Could not read http://127.0.0.1:9/docs: 127.0.0.1:9 refused the connection (ECONNREFUSED).";
    const crawl = document({
      name: "127.0.0.1:9/docs",
      kind: "web",
      error_code: "site_unreachable",
      error_message: detail,
    });
    expect(documentReason(await translator("en"), crawl, "en")).toEqual({
      sentence: "The site could not be read.",
      detail,
    });
    expect(documentReason(await translator("de"), crawl, "de")).toEqual({
      sentence: "Die Website konnte nicht gelesen werden.",
      detail,
    });
  });

  it("has every failure's sentence in every language", () => {
    const codes = Object.keys(en.failure);
    for (const [language, messages] of Object.entries(LOCALES)) {
      expect(Object.keys(messages.failure).sort(), language).toEqual([...codes].sort());
    }
  });
});
