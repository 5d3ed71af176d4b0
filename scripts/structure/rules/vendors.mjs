// A vendor's name spread over the code: a vendor is its descriptor in packages/contract/src/providers/
// and its adapter folder in packages/engine/src/providers/<id>/, named in at most a few other places.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { isTestFile, relativeTo, walk } from "../files.mjs";

const MAX_FILES_PER_VENDOR = 3;
/** Text a vendor's name may hide in: source, and JSON such as the web app's locales. */
const TEXT_EXTENSIONS = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|json|css|html)$/;
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A whole word, case-insensitive; "-" counts as part of a word, so "openai" ≠ "azure-openai". */
const wholeWord = (term) => new RegExp(`(?<![\\w-])${escapeRegExp(term)}(?![\\w-])`, "i");

/**
 * Words that also name something that is not the vendor, and the files where they do: only the
 * vendor's label counts there. Google is both the Gemini vendor and a sign-in (OpenID Connect) provider.
 */
const OTHER_MEANINGS = {
  // "whatsapp" is also a kind of phone number and a call channel of the product (spec §2, §5, §7:
  // the WhatsApp form, /phone-numbers/whatsapp/integrate): the contract's channel and number kinds,
  // the server's settings, the channel's own module, the code that tells number kinds apart and the
  // pages' channel labels name it in that sense. The vendor's facts stay in its descriptor and engine folder.
  whatsapp:
    /^(apps\/server\/src\/(app\.ts|config\.ts|modules\/whatsapp\/|modules\/phone-numbers\/|modules\/telephony\/)|packages\/contract\/src\/(calls|phone-numbers)\.ts|apps\/web\/src\/(features\/phone-numbers\/|features\/(call-logs|home)\/locales\/|api\/phone-numbers\.ts))/,
  google:
    /^(apps\/server\/src\/(config\.ts|modules\/auth\/)|apps\/web\/src\/(features\/auth\/|features\/profile\/(components\/sign-in-methods|locales\/)|i18n\/locales\/)|packages\/contract\/src\/auth\.ts)/,
};

/**
 * The text with model ids and URL paths blanked out: "anthropic/claude-sonnet-4.5" on a router's
 * list, "/openai/v1" in another vendor's URL and `m("mistral", "Mistral")` (a model on a local server) are
 * facts of the vendor that serves them, not mentions of the vendor they are named after. Import
 * specifiers are kept: importing a vendor's file is a mention.
 */
function withoutModelIdsAndPaths(text) {
  return text
    .replace(/\bm\(\s*"[^"\n]*"(\s*,\s*"[^"\n]*")?\s*\)/g, "m()")
    .replace(/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)?(["'`])((?:\\.|(?!\2)[^\\\n])*)\2/g, (whole, lead, _q, body) =>
      !lead && body.includes("/") ? '""' : whole,
    );
}

function vendors(root) {
  const dir = path.join(root, "packages/contract/src/providers");
  if (!existsSync(dir)) return [];
  const list = [];
  for (const name of readdirSync(dir).sort()) {
    if (!/\.ts$/.test(name) || /\.test\.ts$/.test(name) || name === "index.ts" || name === "types.ts") continue;
    const id = name.slice(0, -3);
    const text = readFileSync(path.join(dir, name), "utf8");
    // A descriptor names its own id (the file name), then its label; a shared helper does not.
    const at = text.search(new RegExp(`\\bid:\\s*"${escapeRegExp(id)}"`));
    const label = at < 0 ? undefined : text.slice(at).match(/\blabel:\s*"([^"]+)"/)?.[1];
    // A provider kept off the Integrations page is built in (the offline voice), not a vendor.
    const builtIn = /\bintegrationKinds:\s*\[\s*\]/.test(text);
    if (label && !builtIn) list.push({ id, label });
  }
  return list;
}

function isProductionFile(rel, file) {
  const parts = rel(file).split("/");
  if (parts.some((part) => part === "test" || part === "testing" || part === "__tests__")) return false;
  return !isTestFile(parts.at(-1));
}

export function checkVendors(root) {
  const rel = relativeTo(root);
  const problems = [];
  const productionFiles = ["packages", "apps"].flatMap((top) => {
    const topDir = path.join(root, top);
    if (!existsSync(topDir)) return [];
    return readdirSync(topDir)
      .map((pkg) => path.join(topDir, pkg, "src"))
      .filter((src) => existsSync(src) && statSync(src).isDirectory())
      .flatMap((src) => walk(src, (name) => TEXT_EXTENSIONS.test(name)))
      .filter((file) => isProductionFile(rel, file));
  });
  const texts = new Map(
    productionFiles.map((file) => [rel(file), withoutModelIdsAndPaths(readFileSync(file, "utf8"))]),
  );

  const vendorList = vendors(root);
  /** The files that belong to a vendor: its descriptor and its adapter folder. */
  const ownsFile = (vendor, name) =>
    name === `packages/contract/src/providers/${vendor.id}.ts` ||
    name.startsWith(`packages/engine/src/providers/${vendor.id}/`);

  for (const vendor of vendorList) {
    const idPattern = wholeWord(vendor.id);
    const labelPattern = wholeWord(vendor.label);
    // "Azure OpenAI" contains "OpenAI": Azure's own files name Azure's product, not OpenAI.
    const containers = vendorList.filter((other) => other !== vendor && labelPattern.test(other.label));
    const adapterDir = `packages/engine/src/providers/${vendor.id}/`;
    const places = new Set();
    for (const [name, text] of texts) {
      if (containers.some((other) => ownsFile(other, name))) continue;
      const idCounts = !OTHER_MEANINGS[vendor.id]?.test(name);
      if (!labelPattern.test(text) && !(idCounts && idPattern.test(text))) continue;
      places.add(name.startsWith(adapterDir) ? `${adapterDir} (adapter folder)` : name);
    }
    if (places.size > MAX_FILES_PER_VENDOR) {
      const list = [...places].sort().map((p) => `    ${p}`);
      problems.push(
        `vendor "${vendor.id}" (${vendor.label}) is named in ${places.size} production files, at most ${MAX_FILES_PER_VENDOR}:\n${list.join("\n")}`,
      );
    }
  }
  return problems;
}
