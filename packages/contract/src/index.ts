export * from "./admin.ts";
export * from "./analytics.ts";
export * from "./api-keys.ts";
export * from "./assistant-versions.ts";
export * from "./assistants.ts";
export * from "./auth.ts";
export * from "./batch-calls.ts";
export * from "./billing.ts";
export * from "./call-analysis.ts";
export * from "./call-widgets.ts";
export * from "./calls.ts";
export * from "./catalog.ts";
export * from "./catalog-tts.ts";
export * from "./common.ts";
export * from "./constants.ts";
export * from "./errors.ts";
export * from "./fault-policy.ts";
export * from "./functions.ts";
export * from "./integrations.ts";
export * from "./knowledge-base.ts";
export * from "./mcp-servers.ts";
export * from "./nodes.ts";
export * from "./phone-numbers.ts";
export * from "./pricing.ts";
export * from "./privacy.ts";
export { CredentialField, IntegrationKind } from "./providers/credentials.ts";
export { LanguageOption, ModelOption, SettingFieldSpec, SttFieldSpec } from "./providers/editor-options.ts";
export * from "./providers/index.ts";
export * from "./providers/llm-config.ts";
export * from "./providers/provider-configs.ts";
export * from "./providers/tts-config.ts";
export type {
  EmbeddingsStage,
  LlmStage,
  PerMillionTokens,
  PerMinute,
  PerToken,
  ProviderDescriptor,
  ProviderStage,
  RealtimeStage,
  RealtimeTokenPrice,
  SttStage,
  TelephonyStage,
  TokenPrice,
  TtsStage,
} from "./providers/types.ts";
export * from "./realtime.ts";
export * from "./squads.ts";
export * from "./templates.ts";
export * from "./test-suites.ts";
export * from "./users.ts";
export * from "./webhooks.ts";
export * from "./workflow-validation.ts";
export * from "./workflows.ts";
export * from "./workspaces.ts";
