#!/usr/bin/env node
// `parley …`: the CLI is TypeScript run from source, as the server is (`npm start`), so a checkout
// needs no build step. tsx compiles it on import; only this file is plain JavaScript.
import { fileURLToPath } from "node:url";
import { register } from "tsx/esm/api";

// Scoped to this package's tsconfig so a project's own tsconfig (npx runs in its directory) changes nothing.
register({ tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)) });
const { main } = await import("../src/main.ts");

const interrupt = new AbortController();
let interrupts = 0;
const onSignal = (signal) => {
  interrupts += 1;
  // A second Ctrl-C does not wait for the cancel request.
  if (interrupts > 1) process.exit(signal === "SIGINT" ? 130 : 143);
  interrupt.abort(new Error(`${signal} received`));
};
process.on("SIGINT", onSignal);
process.on("SIGTERM", onSignal);

const code = await main(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  cwd: process.cwd(),
  signal: interrupt.signal,
});
// Exit at once: idle keep-alive sockets would otherwise hold the process for seconds.
process.exit(code);
