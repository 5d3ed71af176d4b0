import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { api } from "../../../lib/http-client.ts";
import { catalogKeys, llmModelsQuery } from "./catalog-api.ts";

afterEach(() => vi.restoreAllMocks());

/** Runs the query as the editor would, in a fresh cache. */
const run = (options: ReturnType<typeof llmModelsQuery>) => new QueryClient().fetchQuery(options);

describe("the language model list query", () => {
  it("asks an OpenAI-compatible server at the assistant's base URL, with the URL and workspace in the key", async () => {
    const request = vi.spyOn(api, "request").mockResolvedValue({
      provider: "openai-compatible",
      models: [{ value: "qwen3:8b" }],
      source: "live",
    });
    const query = llmModelsQuery("ws-1", "openai-compatible", " http://ollama.lan:11434/v1 ");
    expect(query.queryKey).toEqual(["ws-1", "catalog", "models", "openai-compatible", "http://ollama.lan:11434/v1"]);
    expect(query.queryKey).not.toEqual(
      llmModelsQuery("ws-2", "openai-compatible", "http://ollama.lan:11434/v1").queryKey,
    );
    expect(query.queryKey).not.toEqual(llmModelsQuery("ws-1", "openai-compatible", "http://other:8000/v1").queryKey);
    expect(await run(query)).toEqual({ provider: "openai-compatible", models: [{ value: "qwen3:8b" }] });
    expect(request).toHaveBeenCalledWith("/models/openai-compatible?base_url=http%3A%2F%2Follama.lan%3A11434%2Fv1");
  });

  it("keeps the server's failure reason beside the built-in list", async () => {
    vi.spyOn(api, "request").mockResolvedValue({
      provider: "openai-compatible",
      models: [{ value: "llama3.2", label: "Llama 3.2" }],
      source: "builtin",
      error: "HTTP 404: not found",
    });
    const data = await run(llmModelsQuery("ws-1", "openai-compatible", "http://ollama.lan:11434/v1"));
    expect(data.error).toBe("HTTP 404: not found");
  });

  it("uses the one built-in list for a half-typed URL and for providers that do not list a server", async () => {
    const request = vi.spyOn(api, "request").mockResolvedValue({ provider: "x", models: [] });
    for (const typed of ["", "http", "ollama.lan:11434", "ftp://files.lan/v1"]) {
      const query = llmModelsQuery("ws-1", "openai-compatible", typed);
      expect(query.queryKey, typed).toEqual(catalogKeys.models("ws-1", "openai-compatible"));
    }
    const azure = llmModelsQuery("ws-1", "azure-openai", "https://my-resource.example.com");
    expect(azure.queryKey).toEqual(["ws-1", "catalog", "models", "azure-openai", null]);
    await run(azure);
    expect(request).toHaveBeenCalledWith("/models/azure-openai");
  });

  it("asks a self-hosted server again sooner than the fixed catalogs", () => {
    const server = llmModelsQuery("ws-1", "openai-compatible", "http://ollama.lan:11434/v1");
    const fixed = llmModelsQuery("ws-1", "anthropic");
    expect(Number(server.staleTime)).toBeLessThan(Number(fixed.staleTime));
  });

  it("keeps the last list of the same workspace and provider on offer while a new URL loads", async () => {
    const listed = { provider: "openai-compatible", models: [{ value: "qwen3:8b" }] };
    vi.spyOn(api, "request").mockResolvedValue(listed);
    const first = llmModelsQuery("ws-1", "openai-compatible", "http://ollama.lan:11434/v1");
    /** What the picker shows right after the query moves from `first` to `next`, before `next` answers. */
    const shownWhileLoading = async (next: ReturnType<typeof llmModelsQuery>) => {
      const client = new QueryClient();
      await client.fetchQuery(first);
      const observer = new QueryObserver(client, first);
      const stop = observer.subscribe(() => {});
      observer.setOptions(next);
      const shown = observer.getCurrentResult().data;
      stop();
      return shown;
    };
    expect(await shownWhileLoading(llmModelsQuery("ws-1", "openai-compatible", "http://other:8000/v1"))).toEqual(
      listed,
    );
    expect(
      await shownWhileLoading(llmModelsQuery("ws-2", "openai-compatible", "http://other:8000/v1")),
    ).toBeUndefined();
    expect(await shownWhileLoading(llmModelsQuery("ws-1", "anthropic"))).toBeUndefined();
  });
});
