import pg from "pg";

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 5_000;

export interface Listener {
  close(): Promise<void>;
}

/**
 * LISTENs on one PostgreSQL channel over a dedicated connection (a pooled one would be handed to
 * other queries and lose the subscription). A dropped connection (server restart, network) is
 * reopened with backoff; what was notified meanwhile is lost, which the senders allow for (they
 * time out or poll). Resolves once listening, or after the first failure (then retries in the
 * background), so a database hiccup does not stop the server starting.
 */
export async function listen(options: {
  connectionString: string;
  channel: string;
  onMessage(payload: string): void;
  onError(error: unknown): void;
}): Promise<Listener> {
  let client: pg.Client | null = null;
  let closed = false;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: NodeJS.Timeout | null = null;

  const retry = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void open();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
  };

  const open = async () => {
    const next = new pg.Client({ connectionString: options.connectionString, keepAlive: true });
    next.on("notification", (message) => {
      if (message.channel === options.channel && message.payload !== undefined) options.onMessage(message.payload);
    });
    const lost = (error?: unknown) => {
      if (client !== next) return;
      client = null;
      if (error) options.onError(error);
      void next.end().catch(() => undefined);
      retry();
    };
    next.on("error", lost);
    next.on("end", () => lost());
    try {
      await next.connect();
      // The channel is ours (a constant), quoted as an identifier all the same.
      await next.query(`LISTEN ${pg.escapeIdentifier(options.channel)}`);
      if (closed) return void (await next.end());
      client = next;
      retryMs = FIRST_RETRY_MS;
    } catch (error) {
      options.onError(error);
      void next.end().catch(() => undefined);
      retry();
    }
  };

  await open();
  return {
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const current = client;
      client = null;
      await current?.end().catch(() => undefined);
    },
  };
}
