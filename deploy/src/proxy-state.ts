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

/** Each node's row of `show stat` (columns by name: status, stot, scur, chkfail, lastchg…). */
export async function haproxyServerRows(socketPath: string): Promise<Map<string, Record<string, string>>> {
  const csv = await haproxyCommand(socketPath, "show stat");
  const [header, ...rows] = csv.split("\n").filter((line) => line.trim() !== "");
  const columns = (header ?? "").replace(/^#\s*/, "").split(",");
  if (!columns.includes("pxname") || !columns.includes("status"))
    throw new Error(`unexpected "show stat" answer: ${csv.slice(0, 200)}`);
  const servers = new Map<string, Record<string, string>>();
  for (const line of rows) {
    const cells = line.split(",");
    const row = Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? ""]));
    const name = row.svname;
    if (row.pxname !== HAPROXY_BACKEND || !name || name === "BACKEND" || name === "FRONTEND") continue;
    servers.set(name, row);
  }
  return servers;
}

/** Each node's status column of `show stat` ("UP", "DOWN", "MAINT", "DOWN 1/2" while coming up…). */
export async function haproxyServerStates(socketPath: string): Promise<Map<string, string>> {
  const rows = await haproxyServerRows(socketPath);
  return new Map([...rows].map(([name, row]) => [name, row.status ?? ""]));
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
