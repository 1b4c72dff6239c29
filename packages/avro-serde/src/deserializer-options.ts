import { invalidConfigError } from '@x/errors'
import type { IdType, SerializationContext } from '@x/wire-format'
import type { AvroOptions, NormalizedAvroOptions } from './avro/index.js'
import { type ArtifactResolver, type ResolveFunction, toResolveFunction } from './strategies.js'
import {
  checkAvroOption,
  checkBoolean,
  checkFunction,
  checkIdType,
  checkKnownKeys,
  checkSchemaOption,
  describe,
} from './validate.js'

/** Options of {@link AvroDeserializer}. */
export interface AvroDeserializerOptions<T = unknown> {
  /**
   * Turns the decoded value into the caller's type; its result is what `deserialize` returns. If it throws,
   * `deserialize` throws a `DeserializationError` with its error as `cause`.
   * @default undefined (the decoded value is returned as it is)
   */
  fromDict?: (value: unknown, ctx: SerializationContext) => T
  /**
   * How the id of a framed message is read: as a `globalId` or a `contentId`. It must match what the producer
   * wrote; Apicurio's Java serde 3.x writes `contentId`. (An id header names its own type.)
   * @default 'globalId'
   */
  useId?: IdType
  /**
   * The artifact whose latest version is the reader schema. Needs `useLatestVersion: true`; exclusive with
   * `artifactResolver`.
   */
  artifactId?: string
  /**
   * Derives the artifact of the reader schema from each call's context. Needs `useLatestVersion: true`; exclusive
   * with `artifactId`.
   */
  artifactResolver?: ArtifactResolver
  /**
   * Decode into the latest version of the resolved artifact (fetched on the first call for that artifact and
   * cached), resolving it against each message's writer schema. Needs `artifactId` or `artifactResolver`;
   * exclusive with `readerSchema`.
   * @default false
   */
  useLatestVersion?: boolean
  /**
   * The reader schema (object or JSON text), parsed once at construction: values are decoded into it by Avro
   * schema resolution (defaults fill missing fields, extra writer fields are dropped, promotions, aliases).
   * Exclusive with `useLatestVersion`. Without it (and without `useLatestVersion`) the writer schema reads.
   * @default undefined
   */
  readerSchema?: object | string
  /** How Avro values map to JavaScript (longs, unions, logical types); see the type mapping. */
  avro?: AvroOptions
}

/** @internal The deserializer's options, checked, with every default applied. */
export interface NormalizedDeserializerOptions<T> {
  fromDict: ((value: unknown, ctx: SerializationContext) => T) | undefined
  useId: IdType
  artifactId: string | undefined
  resolve: ResolveFunction | undefined
  useLatestVersion: boolean
  readerSchema: object | string | undefined
  avro: NormalizedAvroOptions
}

const KNOWN = [
  'fromDict',
  'useId',
  'artifactId',
  'artifactResolver',
  'useLatestVersion',
  'readerSchema',
  'avro',
] as const

/**
 * @internal Checks the deserializer's options in the order of the specification (§2.3, §7) and applies the
 * defaults. Every conflict is a `TypeError` with code `INVALID_CONFIG`.
 */
export function normalizeDeserializerOptions<T>(options: unknown): NormalizedDeserializerOptions<T> {
  if (options !== undefined && (typeof options !== 'object' || options === null || Array.isArray(options))) {
    throw invalidConfigError(`AvroDeserializer options must be an object, got ${describe(options)}`)
  }
  const raw = (options ?? {}) as Record<string, unknown>
  checkKnownKeys(raw, KNOWN, 'AvroDeserializer')
  const { artifactId, artifactResolver } = raw
  const useLatestVersion = checkBoolean(raw.useLatestVersion, false, 'AvroDeserializer: useLatestVersion')
  const readerSchema = checkSchemaOption(raw.readerSchema, 'AvroDeserializer: readerSchema')

  if (artifactId !== undefined && artifactResolver !== undefined) {
    throw invalidConfigError(
      'AvroDeserializer: artifactId and artifactResolver are mutually exclusive; give one',
    )
  }
  if (useLatestVersion && artifactId === undefined && artifactResolver === undefined) {
    throw invalidConfigError(
      'AvroDeserializer: useLatestVersion: true needs artifactId or artifactResolver to know which artifact is latest',
    )
  }
  if (useLatestVersion && readerSchema !== undefined) {
    throw invalidConfigError(
      'AvroDeserializer: useLatestVersion and readerSchema are mutually exclusive: the reader schema comes from one of them',
    )
  }
  if (!useLatestVersion && (artifactId !== undefined || artifactResolver !== undefined)) {
    throw invalidConfigError(
      `AvroDeserializer: ${artifactId !== undefined ? 'artifactId' : 'artifactResolver'} is only used with useLatestVersion: true (it names the reader schema's artifact); set useLatestVersion or remove it`,
    )
  }
  const useId = checkIdType(raw.useId, 'AvroDeserializer: useId')
  if (artifactId !== undefined && (typeof artifactId !== 'string' || artifactId === '')) {
    throw invalidConfigError(
      `AvroDeserializer: artifactId must be a non-empty string, got ${describe(artifactId)}`,
    )
  }
  return {
    fromDict: checkFunction(
      raw.fromDict,
      'AvroDeserializer: fromDict',
    ) as NormalizedDeserializerOptions<T>['fromDict'],
    useId,
    artifactId: artifactId as string | undefined,
    resolve: artifactResolver === undefined ? undefined : toResolveFunction(artifactResolver),
    useLatestVersion,
    readerSchema,
    avro: checkAvroOption(raw.avro, 'AvroDeserializer: avro'),
  }
}
