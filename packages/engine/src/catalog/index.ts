export { hasModelListing, type ListModelsOptions, listModels, type ModelKind } from "./models.ts";
export { type ConnectionResult, type TestConnectionOptions, testConnection } from "./test-connection.ts";
export { CARTESIA_VERSION, type Credentials, labelOf, PROVIDER_LABELS } from "./vendor-auth.ts";
export {
  type CloneProvider,
  createVoiceClone,
  deleteVoiceClone,
  type VoiceCloneInput,
  type VoiceCloneOptions,
} from "./voice-clones.ts";
export { type CatalogOptions, listVoices, type VoiceOption } from "./voices.ts";
