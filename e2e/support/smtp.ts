import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface CapturedEmail {
  to: string;
  raw: string;
}

/** A real SMTP server on 127.0.0.1 that keeps every message, for reading emailed links. */
export async function startSmtpServer() {
  const messages: CapturedEmail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => {
        raw += chunk.toString("utf8");
      });
      stream.on("end", () => {
        for (const rcpt of session.envelope.rcptTo) messages.push({ to: rcpt.address.toLowerCase(), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** Waits for an email to the address and returns the first link under `base` in it. */
    async linkTo(address: string, base: string, timeoutMs = 15_000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const mail = messages.filter((m) => m.to === address.toLowerCase()).at(-1);
        // Quoted-printable soft line breaks ("=\r\n") and "=3D" would break the URL.
        const text = mail?.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
        const link = text?.match(new RegExp(`${base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^\\s"<>]+`))?.[0];
        if (link) return link;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`no email with a link reached ${address}`);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
