import type { CallSettings } from "@parley/engine";

/**
 * The assistant's prompt and first message with this call's {{name}} placeholders filled in; a
 * placeholder the call has no value for stays as written, so a missing column is visible in review.
 */
export function withVariables(settings: CallSettings, variables: Record<string, string>): CallSettings {
  if (Object.keys(variables).length === 0) return settings;
  const fill = (text: string) =>
    text.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (whole, name: string) => variables[name] ?? whole);
  return {
    ...settings,
    systemPrompt: fill(settings.systemPrompt),
    firstMessage: settings.firstMessage === null ? null : fill(settings.firstMessage),
  };
}
