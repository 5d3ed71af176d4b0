import { execFile } from "node:child_process";
import { connect } from "node:net";
import { promisify } from "node:util";
import { HAPROXY_BACKEND } from "./render-haproxy.ts";

const run = promisify(execFile);

/** One command on HAProxy's stats socket; its whole answer. */
export function haproxyCommand(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write(`${command}\n`));
    socket.on("data", (chunk: string) => {
      answer += chunk;
    });
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
    socket.setTimeout(5000, () => socket.destroy(new Error(`HAProxy did not answer "${command}"`)));
  });
}

/** Each node's status column of `show stat` ("UP", "DOWN", "MAINT", "DOWN 1/2" while coming up…). */
export async function haproxyServerStates(socketPath: string): Promise<Map<string, string>> {
  const csv = await haproxyCommand(socketPath, "show stat");
  const [header, ...rows] = csv.split("\n").filter((line) => line.trim() !== "");
  const columns = (header ?? "").replace(/^#\s*/, "").split(",");
  const px = columns.indexOf("pxname");
  const sv = columns.indexOf("svname");
  const status = columns.indexOf("status");
  if (px < 0 || sv < 0 || status < 0) throw new Error(`unexpected "show stat" answer: ${csv.slice(0, 200)}`);
  const states = new Map<string, string>();
  for (const row of rows) {
    const cells = row.split(",");
    const name = cells[sv];
    if (cells[px] !== HAPROXY_BACKEND || !name || name === "BACKEND" || name === "FRONTEND") continue;
    states.set(name, cells[status] ?? "");
  }
  return states;
}

/**
 * Each node's state in Kamailio's dispatcher (`kamcmd dispatcher.list`, FLAGS: first letter A
 * active, I inactive, D disabled, T trying — failed once, not yet past the probing threshold).
 */
export async function dispatcherStates(ctlSocket: string): Promise<Map<string, string>> {
  const { stdout } = await run("kamcmd", ["-s", `unix:${ctlSocket}`, "dispatcher.list"], { timeout: 5000 });
  const states = new Map<string, string>();
  let flags = "";
  for (const line of stdout.split("\n")) {
    const field = line.trim();
    if (field.startsWith("FLAGS:")) flags = field.slice("FLAGS:".length).trim();
    const node = /^BODY:\s*node=([a-z0-9-]+)/.exec(field)?.[1];
    if (node) states.set(node, dispatcherStateName(flags));
  }
  return states;
}

function dispatcherStateName(flags: string): string {
  switch (flags[0]) {
    case "A":
      return "active";
    case "I":
      return "inactive";
    case "D":
      return "disabled";
    case "T":
      return "probing";
    default:
      return flags;
  }
}
