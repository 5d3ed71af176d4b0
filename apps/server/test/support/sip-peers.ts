import { type ChildProcess, spawn } from "node:child_process";
import { createSocket } from "node:dgram";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Real SIP peers from Debian for the SIP tests: baresip (a softphone, no audio device: a sine
 * source and /dev/null playback) and sipp (scripted UAC/UAS). Each runs from a temporary
 * directory and is stopped by the test that started it.
 */

/** A free UDP port on 127.0.0.1 (bound and released: baresip cannot be told to pick one and report it). */
export async function freeUdpPort(): Promise<number> {
  const socket = createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/** An RTP port window for one test file, high and random so files running side by side differ. */
export function rtpWindow(): { RTP_PORT_MIN: string; RTP_PORT_MAX: string } {
  const min = 30_000 + Math.floor(Math.random() * 1_500) * 20;
  return { RTP_PORT_MIN: String(min), RTP_PORT_MAX: String(min + 199) };
}

export interface Baresip {
  output(): string;
  /** Stops baresip; with SIGINT it unregisters first. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function startBaresip(account: {
  user: string;
  domain: string;
  password: string;
  registrar: string;
  transport?: "udp" | "tcp";
  /** Answer incoming calls at once. */
  autoAnswer?: boolean;
}): Promise<Baresip> {
  const dir = mkdtempSync(path.join(tmpdir(), "parley-baresip-"));
  const port = await freeUdpPort();
  writeFileSync(
    path.join(dir, "config"),
    [
      "poll_method epoll",
      `sip_listen 127.0.0.1:${port}`,
      "module_path /usr/lib/baresip/modules",
      "module g711.so",
      "module ausine.so",
      "module aufile.so",
      "module_app account.so",
      "audio_player aufile,/dev/null",
      "audio_source ausine,440",
      // ausine makes 48 kHz stereo only; baresip converts for G.711.
      "ausrc_srate 48000",
      "ausrc_channels 2",
      "audio_alert aufile,/dev/null",
      "",
    ].join("\n"),
  );
  const transport = account.transport ?? "udp";
  writeFileSync(
    path.join(dir, "accounts"),
    `<sip:${account.user}@${account.domain};transport=${transport}>;auth_pass=${account.password};outbound="sip:${account.registrar};transport=${transport}";regint=60${account.autoAnswer ? ";answermode=auto" : ""}\n`,
  );
  const child: ChildProcess = spawn("baresip", ["-f", dir, "-v"], { stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    output: () => text,
    async stop(signal = "SIGINT") {
      if (child.exitCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * Polls until `check` holds. `what` names it in the timeout's message; as a function it is read at
 * the timeout, so it can show what a peer printed meanwhile.
 */
export async function eventually<T>(
  check: () => Promise<T | null | false>,
  what: string | (() => string),
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${typeof what === "function" ? what() : what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
