import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Words that mean the same thing share a dimension, so paraphrases land close together — a
 * stand-in for a real embeddings model that tests can reason about.
 */
const CONCEPTS: Record<string, number> = {
  refund: 0,
  refunds: 0,
  reimburse: 0,
  reimbursed: 0,
  money: 0,
  item: 1,
  items: 1,
  purchase: 1,
  parcel: 1,
  parcels: 1,
  order: 1,
  return: 2,
  returns: 2,
  delivery: 3,
  shipping: 3,
  arrive: 3,
  message: 4,
  email: 4,
  office: 4,
};
const DIMENSIONS = 6;

export function conceptVector(text: string): number[] {
  const v = new Array<number>(DIMENSIONS).fill(0);
  v[DIMENSIONS - 1] = 0.1; // never the zero vector, whose cosine distance is undefined
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const dim = CONCEPTS[word];
    if (dim !== undefined) v[dim] = (v[dim] ?? 0) + 1;
  }
  return v;
}

export interface EmbeddingsDouble {
  /** OpenAI-compatible base URL (ends in /v1). */
  baseUrl: string;
  /** The model of every request, in order. */
  models: string[];
  inputs: number;
  close(): Promise<void>;
}

/** The OpenAI embeddings protocol on 127.0.0.1. */
export async function startEmbeddingsDouble(): Promise<EmbeddingsDouble> {
  const state = { models: [] as string[], inputs: 0 };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== "POST" || !req.url?.endsWith("/embeddings")) {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { model: string; input: string[] };
    state.models.push(body.model);
    state.inputs += body.input.length;
    const data = body.input.map((text, index) => ({ object: "embedding", index, embedding: conceptVector(text) }));
    res
      .writeHead(200, { "content-type": "application/json" })
      .end(JSON.stringify({ object: "list", data, model: body.model }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get models() {
      return state.models;
    },
    get inputs() {
      return state.inputs;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
