import { readFileSync } from 'node:fs'
import * as avroSerde from '@x/avro-serde'
import type { IdType as ErrorsIdType } from '@x/errors'
import * as errors from '@x/errors'
import * as idpAuth from '@x/idp-auth'
import * as jsonSchemaSerde from '@x/jsonschema-serde'
import * as kafka from '@x/kafka'
import * as protobufSerde from '@x/protobuf-serde'
import * as registryClient from '@x/registry-client'
import * as registryTesting from '@x/registry-testing'
import type { IdType as WireFormatIdType } from '@x/wire-format'
import * as wireFormat from '@x/wire-format'
import { describe, expect, expectTypeOf, it } from 'vitest'
// Every public type of the members, imported from the umbrella: the test type-check fails if one goes missing.
import type {
  ArtifactCoordinates,
  ArtifactReference,
  ArtifactResolver,
  AuthenticationErrorOptions,
  AvroDeserializerOptions,
  AvroEncoding,
  AvroOptions,
  AvroSerializerArtifactOptions,
  AvroSerializerOptions,
  AvroTypeHook,
  CallOptions,
  CodedRangeError,
  CodedTypeError,
  DataIssue,
  DataRangeError,
  DataTypeError,
  DecodedFrame,
  DecodeFrameOptions,
  DeserializationErrorOptions,
  ErrorCode,
  FrameOptions,
  IdpAuthOptions,
  IdSize,
  IdType,
  IfExists,
  IncomingMessage,
  LogicalTypeConstructor,
  LongMode,
  MessageHeaders,
  MessageHeaderValue,
  MisuseErrorCode,
  PathSegment,
  ReadIdSize,
  RegisteredSchema,
  RegisterSchemaOptions,
  RegistryClientOptions,
  RegistryClientTiming,
  RegistryConnectionErrorOptions,
  RegistryPort,
  SchemaId,
  SchemaNotFoundErrorOptions,
  SchemaRegistrationErrorOptions,
  SchemaVersionOptions,
  SerdeErrorCode,
  SerdeErrorOptions,
  SerializationContextInit,
  SerializedMessage,
  TokenProvider,
  UnionMode,
} from './index.js'
import * as umbrella from './index.js'
import * as umbrellaJsonSchema from './json-schema.js'
import * as umbrellaKafka from './kafka.js'
import * as umbrellaProtobuf from './protobuf.js'
import * as umbrellaTesting from './testing.js'

const RUNTIME_EXPORTS = [
  'AsyncRegistryClient',
  'AuthenticationError',
  'AvroDeserializer',
  'AvroSerializer',
  'ClientClosedError',
  'DeserializationError',
  'ERROR_CODES',
  'FRAME_HEADER_SIZE',
  'ID_TYPES',
  'IF_EXISTS',
  'INT64_MAX',
  'INT64_MIN',
  'IdpAuth',
  'MAGIC_BYTE',
  'MessageField',
  'QualifiedRecordIdStrategy',
  'REDACTED',
  'RegistryClient',
  'RegistryConnectionError',
  'ResolverError',
  'RuleViolationError',
  'SERDE_ERROR_BRAND',
  'SNAPSHOT_VERSION',
  'SchemaNotFoundError',
  'SchemaRegistrationError',
  'SerdeError',
  'SerializationContext',
  'SerializationError',
  'SimpleTopicIdStrategy',
  'TopicIdStrategy',
  'TopicRecordIdStrategy',
  'WireFormat',
  'checkSnapshot',
  'dataIssue',
  'dataIssuesError',
  'decodeFrame',
  'decodeIdHeader',
  'describeKind',
  'describeValue',
  'encodeFrame',
  'encodeIdHeader',
  'failedMessageOf',
  'fieldPath',
  'firstItems',
  'formatPath',
  'idHeaderName',
  'idOutOfRangeError',
  'indexPath',
  'invalidConfigError',
  'invalidDataError',
  'isIdType',
  'isSerdeError',
  'keyPath',
  'messageOf',
  'parseIdText',
  'parseSnapshot',
  'readSnapshot',
  'recordFailedMessage',
  'redactSecrets',
  'redactUrl',
  'takeSnapshot',
  'toSchemaId',
  'unsafeIntegerError',
  'writeFrameHeader',
]

const TYPE_EXPORTS = [
  'ArtifactCoordinates',
  'ArtifactReference',
  'ArtifactResolver',
  'AuthenticationErrorOptions',
  'AvroDeserializerOptions',
  'AvroEncoding',
  'AvroOptions',
  'AvroSerializerArtifactOptions',
  'AvroSerializerOptions',
  'AvroTypeHook',
  'CallOptions',
  'CodedRangeError',
  'CodedTypeError',
  'ContractCallOptions',
  'ContractRule',
  'ContractRuleAction',
  'ContractRuleMode',
  'ContractRuleSet',
  'ContractVerdict',
  'ContractViolation',
  'DataIssue',
  'DataRangeError',
  'DataTypeError',
  'DecodeFrameOptions',
  'DecodedFrame',
  'DeserializationErrorOptions',
  'ErrorCode',
  'FailedMessage',
  'FailedMessageContext',
  'FrameOptions',
  'IdSize',
  'IdType',
  'IdpAuthOptions',
  'IfExists',
  'IncomingMessage',
  'LogicalTypeConstructor',
  'LongMode',
  'MessageHeaderValue',
  'MessageHeaders',
  'MisuseErrorCode',
  'PathSegment',
  'PemInput',
  'ReadIdSize',
  'RegisterSchemaOptions',
  'RegisteredSchema',
  'RegistryClientOptions',
  'RegistryClientTiming',
  'RegistryConnectionErrorOptions',
  'RegistryOperation',
  'RegistryPort',
  'RuleViolation',
  'RuleViolationErrorOptions',
  'SchemaId',
  'SchemaNotFoundErrorOptions',
  'SchemaRegistrationErrorOptions',
  'SchemaSnapshot',
  'SchemaVersionOptions',
  'SerdeErrorCode',
  'SerdeErrorOptions',
  'SerializationContextInit',
  'SerializedMessage',
  'SnapshotArtifact',
  'SnapshotReference',
  'SnapshotVersion',
  'TlsOptions',
  'TokenProvider',
  'TokenRetryOptions',
  'UnionMode',
]

const MEMBERS = {
  'avro-serde': avroSerde,
  errors,
  'idp-auth': idpAuth,
  'registry-client': registryClient,
  'wire-format': wireFormat,
}

/** The names a member's src/index.ts lists in its `export type { … }` statements. */
function typeExportsOf(member: string): string[] {
  const source = readFileSync(new URL(`../../${member}/src/index.ts`, import.meta.url), 'utf8')
  return [...source.matchAll(/export type \{([^}]*)\}/g)].flatMap((m) =>
    (m[1] ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  )
}

describe('@x/serde', () => {
  it('exports exactly the pinned runtime names', () => {
    expect(Object.keys(umbrella).sort()).toEqual([...RUNTIME_EXPORTS].sort())
  })

  it('exports every runtime name of its five members, and no member shares a name with another', () => {
    const all = Object.values(MEMBERS).flatMap((member) => Object.keys(member))
    expect(new Set(all).size).toBe(all.length)
    expect([...all].sort()).toEqual(Object.keys(umbrella).sort())
  })

  it('re-exports the members’ own values, not copies', () => {
    for (const member of Object.values(MEMBERS)) {
      for (const [name, value] of Object.entries(member)) {
        expect((umbrella as Record<string, unknown>)[name]).toBe(value)
      }
    }
  })

  it('pins every type name its members export', () => {
    // `IdType` is defined once, in @x/errors; @x/wire-format re-exports that same type (its users import it from there),
    // so `export *` of both is one type, not a collision (checked below).
    const all = Object.keys(MEMBERS)
      .flatMap(typeExportsOf)
      .filter((name, index, names) => name !== 'IdType' || names.indexOf(name) === index)
    expect(new Set(all).size).toBe(all.length)
    expect([...all].sort()).toEqual([...TYPE_EXPORTS].sort())
    expectTypeOf<WireFormatIdType>().toEqualTypeOf<ErrorsIdType>()
  })

  it('re-exports the JSON Schema serde on its own subpath, leaving the root as it is', () => {
    expect(Object.keys(umbrellaJsonSchema).sort()).toEqual(Object.keys(jsonSchemaSerde).sort())
    for (const [name, value] of Object.entries(jsonSchemaSerde)) {
      expect((umbrellaJsonSchema as Record<string, unknown>)[name]).toBe(value)
    }
    expect(Object.keys(umbrella)).not.toContain('JsonSchemaSerializer')
  })

  it('re-exports the Protobuf serde on its own subpath, leaving the root as it is', () => {
    expect(Object.keys(umbrellaProtobuf).sort()).toEqual(Object.keys(protobufSerde).sort())
    for (const [name, value] of Object.entries(protobufSerde)) {
      expect((umbrellaProtobuf as Record<string, unknown>)[name]).toBe(value)
    }
    expect(Object.keys(umbrella)).not.toContain('ProtobufSerializer')
  })

  it('re-exports the Kafka adapters on their own subpath, leaving the root as it is', () => {
    expect(Object.keys(umbrellaKafka).sort()).toEqual(Object.keys(kafka).sort())
    for (const [name, value] of Object.entries(kafka)) {
      expect((umbrellaKafka as Record<string, unknown>)[name]).toBe(value)
    }
    expect(Object.keys(umbrella)).not.toContain('AnyDeserializer')
  })

  it('re-exports InMemoryRegistry and makeTestCertificates on the testing subpath', () => {
    expect(Object.keys(umbrellaTesting)).toEqual(['InMemoryRegistry', 'makeTestCertificates'])
    expect(umbrellaTesting.InMemoryRegistry).toBe(registryTesting.InMemoryRegistry)
  })
})

// The type imports above are checked by the compiler; this keeps them referenced.
export type AllTypes = [
  ArtifactCoordinates,
  ArtifactReference,
  ArtifactResolver,
  AuthenticationErrorOptions,
  AvroDeserializerOptions,
  AvroEncoding,
  AvroOptions,
  AvroSerializerArtifactOptions,
  AvroSerializerOptions,
  AvroTypeHook,
  CallOptions,
  CodedRangeError,
  CodedTypeError,
  DataIssue,
  DataRangeError,
  DataTypeError,
  DecodedFrame,
  DecodeFrameOptions,
  FrameOptions,
  IdSize,
  ReadIdSize,
  DeserializationErrorOptions,
  ErrorCode,
  IdType,
  IdpAuthOptions,
  IfExists,
  IncomingMessage,
  LogicalTypeConstructor,
  LongMode,
  MessageHeaderValue,
  MessageHeaders,
  MisuseErrorCode,
  PathSegment,
  RegisterSchemaOptions,
  RegisteredSchema,
  RegistryClientOptions,
  RegistryClientTiming,
  RegistryPort,
  RegistryConnectionErrorOptions,
  SchemaId,
  SchemaNotFoundErrorOptions,
  SchemaRegistrationErrorOptions,
  SchemaVersionOptions,
  SerdeErrorCode,
  SerdeErrorOptions,
  SerializationContextInit,
  SerializedMessage,
  TokenProvider,
  UnionMode,
]
