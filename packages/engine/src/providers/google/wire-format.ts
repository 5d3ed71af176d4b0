import { MergedTurns } from "../shared/merged-turns.ts";
import type { ChatMessage, ToolSpec } from "../types.ts";

export type GeminiPart =
  | { text: string }
  | { functionCall: { id?: string; name: string; args: Record<string, unknown> }; thoughtSignature?: string }
  | { functionResponse: { id?: string; name: string; response: Record<string, unknown> } };

export interface GeminiContent {
  role: "user" | "model";
  parts: GeminiPart[];
}

/**
 * Converts the conversation into Gemini `contents` (roles user/model) plus a `systemInstruction`.
 * `signatures` holds the thought signatures Gemini attached to its own function calls: newer
 * models refuse a history whose function calls come back without them.
 */
export function toGeminiContents(
  messages: ChatMessage[],
  signatures: ReadonlyMap<string, string>,
): { systemInstruction?: { parts: { text: string }[] }; contents: GeminiContent[] } {
  const system: string[] = [];
  const contents = new MergedTurns(
    (turn: GeminiContent) => turn.parts,
    (role, parts) => ({ role, parts }),
  );
  for (const message of messages) {
    if (message.role === "system") system.push(message.content);
    else if (message.role === "user") contents.append("user", textParts(message.content));
    else if (message.role === "assistant") {
      const calls = (message.toolCalls ?? []).map((call): GeminiPart => {
        const signature = signatures.get(call.id);
        const part: GeminiPart = { functionCall: { name: call.name, args: asObject(call.arguments) } };
        return signature ? { ...part, thoughtSignature: signature } : part;
      });
      contents.append("model", [...textParts(message.content), ...calls]);
    } else {
      const response = { name: message.name, response: responseObject(message.content) };
      contents.append("user", [{ functionResponse: response }]);
    }
  }
  return {
    ...(system.length > 0 ? { systemInstruction: { parts: [{ text: system.join("\n\n") }] } } : {}),
    contents: contents.turns,
  };
}

export function toGeminiTools(tools: ToolSpec[]) {
  return [
    {
      functionDeclarations: tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: toGeminiSchema(tool.parameters),
      })),
    },
  ];
}

/** The keys of JSON Schema that Gemini's OpenAPI-subset `Schema` accepts. */
const SCHEMA_KEYS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "properties",
  "required",
  "items",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "anyOf",
  "propertyOrdering",
  "default",
]);

/** Drops the JSON Schema keywords Gemini rejects (`$schema`, `additionalProperties`, …). */
export function toGeminiSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toGeminiSchema);
  if (!schema || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!SCHEMA_KEYS.has(key)) continue;
    if (key === "properties" && value && typeof value === "object") {
      out.properties = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, toGeminiSchema(sub)]));
    } else if (key === "items" || key === "anyOf") {
      out[key] = toGeminiSchema(value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

function textParts(text: string): GeminiPart[] {
  return text.trim() === "" ? [] : [{ text }];
}

function asObject(json: string): Record<string, unknown> {
  try {
    const value = JSON.parse(json || "{}") as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** `functionResponse.response` must be an object; plain-text tool output is wrapped. */
function responseObject(content: string): Record<string, unknown> {
  try {
    const value = JSON.parse(content) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Not JSON: wrapped below.
  }
  return { result: content };
}

/** One streamed `GenerateContentResponse` (fields we read). */
export interface GeminiStreamChunk {
  candidates?: {
    content?: {
      parts?: ({ text?: string; thought?: boolean } & Partial<Extract<GeminiPart, { functionCall: unknown }>>)[];
    };
    finishReason?: string;
  }[];
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number };
  error?: { code?: number; message?: string; status?: string };
}
