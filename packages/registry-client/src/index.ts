export { IF_EXISTS } from './call-arguments.js'
export type {
  ContractCallOptions,
  ContractRule,
  ContractRuleAction,
  ContractRuleMode,
  ContractRuleSet,
  ContractVerdict,
  ContractViolation,
} from './contract-types.js'
export { AsyncRegistryClient, RegistryClient } from './registry-client.js'
export type { RegistryClientOptions, RegistryClientTiming } from './registry-client-options.js'
export type { SchemaSnapshot, SnapshotReference, SnapshotVersion } from './schema-snapshot.js'
export { checkSnapshot, parseSnapshot, readSnapshot, SNAPSHOT_VERSION } from './schema-snapshot.js'
export type { SnapshotArtifact } from './take-snapshot.js'
export { takeSnapshot } from './take-snapshot.js'
export type { PemInput, TlsOptions } from './tls-options.js'
export type {
  ArtifactCoordinates,
  ArtifactReference,
  CallOptions,
  IfExists,
  RegisteredSchema,
  RegisterSchemaOptions,
  RegistryOperation,
  SchemaVersionOptions,
  TokenProvider,
} from './types.js'
