import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

/** A server the test doubles run on: where it listens, and how to stop it. */
export interface LocalHttpServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Drops open connections (a streaming answer may still be running) and stops listening. */
  close(): Promise<void>;
}

/**
 * An HTTP server on 127.0.0.1:0 that hands each request on once its whole body has arrived: the
 * vendor stand-ins record what they received before they answer.
 */
export async function listenLocally(
  onRequest: (incoming: IncomingMessage, body: Buffer, response: ServerResponse) => void,
): Promise<LocalHttpServer> {
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => onRequest(incoming, Buffer.concat(chunks), response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("The local server has no TCP address");
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
