import { INTEGRATION_CATALOG, type Integration } from "@parley/contract";

/**
 * An integration as GET /integrations lists it, for tests: the catalog's entry for `provider`,
 * configured in the workspace when it has stored values (or when `source` says so).
 */
export function integrationEntry(
  provider: string,
  options: { source?: Integration["source"]; values?: Record<string, string> } = {},
): Integration {
  const info = INTEGRATION_CATALOG.find((p) => p.id === provider);
  if (!info) throw new Error(`no integration ${provider} in the catalog`);
  const values = options.values ?? {};
  const source = options.source !== undefined ? options.source : Object.keys(values).length > 0 ? "workspace" : null;
  return {
    id: null,
    provider: info.id,
    label: info.label,
    kind: info.kind,
    kinds: [...info.kinds],
    fields: [...info.fields],
    configured: source === "workspace",
    source,
    values,
    last_test: null,
    updated_at: null,
  };
}
