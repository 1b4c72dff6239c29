import { invalidConfigError } from '@x/errors'
import type { ArtifactReference, IfExists } from '@x/registry-client'
import { type IdType, type SerializationContext, WireFormat } from '@x/wire-format'
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

/** Options of {@link AvroSerializer}. */
export interface AvroSerializerOptions<T = unknown> {
  /**
   * The artifact whose schema encodes every value (one serializer per schema). Exactly one of `artifactId` and
   * `artifactResolver` is required; `new AvroSerializer(client, 'UserEvent')` is the short form.
   */
  artifactId?: string
  /**
   * Derives the artifact id from each call's context, e.g. `new TopicIdStrategy()` → `orders-value`, so one
   * serializer serves many topics. Each resolved artifact is fetched once and cached on its own.
   */
  artifactResolver?: ArtifactResolver
  /**
   * Turns the caller's value into the plain object the schema describes. If it throws, `serialize` throws a
   * `SerializationError` with its error as `cause`.
   * @default undefined (the value is encoded as it is)
   */
  toDict?: (value: T, ctx: SerializationContext) => unknown
  /**
   * Refuse values with fields the schema does not define, at any depth (records in records, arrays, maps,
   * unions); the `TypeError` (code `INVALID_DATA`) names each such field by path. Off: such fields are ignored.
   * @default false
   */
  strict?: boolean
  /**
   * Which registry id goes into the message. Apicurio's Java serde 3.x writes `contentId`: set
   * `useId: 'contentId'` to interoperate with its defaults.
   * @default 'globalId'
   */
  useId?: IdType
  /**
   * Register `schema` under the artifact (with `ifExists`) on the first call for that artifact and use the ids the
   * registry answers, instead of fetching the artifact's latest version.
   * @default false
   */
  autoRegister?: boolean
  /** The Avro schema (object or JSON text) to register; required by `autoRegister`, ignored otherwise. */
  schema?: object | string
  /**
   * What the registry does with `autoRegister` when the artifact exists: `FIND_OR_CREATE_VERSION` reuses a
   * version with the same content (and references), `CREATE_VERSION` always adds one, `FAIL` refuses (409).
   * @default 'FIND_OR_CREATE_VERSION'
   */
  ifExists?: IfExists
  /**
   * Apicurio artifact references registered with `schema` (named types it uses that other artifacts define, as
   * `{ name: 'com.example.Address', artifactId: 'com.example.Address', version: '1' }`). Only with `autoRegister`.
   * @default []
   */
  references?: ArtifactReference[]
  /**
   * Where the schema id travels: `FRAMED_PAYLOAD` (`0x00` + 4-byte id + Avro, from `serialize`) or
   * `MESSAGE_HEADERS` (id in an 8-byte `apicurio.<field>.<useId>` header, bare Avro payload, from
   * `serializeMessage`).
   * @default WireFormat.FRAMED_PAYLOAD
   */
  wireFormat?: WireFormat
  /** How Avro values map to JavaScript (longs, unions, logical types); see the type mapping. */
  avro?: AvroOptions
}

/** Options of the `new AvroSerializer(client, artifactId, options)` form, where the artifact id comes second. */
export type AvroSerializerArtifactOptions<T = unknown> = Omit<
  AvroSerializerOptions<T>,
  'artifactId' | 'artifactResolver'
>

/** @internal The serializer's options, checked, with every default applied. */
export interface NormalizedSerializerOptions<T> {
  artifactId: string | undefined
  resolve: ResolveFunction | undefined
  toDict: ((value: T, ctx: SerializationContext) => unknown) | undefined
  strict: boolean
  useId: IdType
  autoRegister: boolean
  schema: object | string | undefined
  ifExists: IfExists
  references: ArtifactReference[] | undefined
  wireFormat: WireFormat
  avro: NormalizedAvroOptions
}

const KNOWN = [
  'artifactId',
  'artifactResolver',
  'toDict',
  'strict',
  'useId',
  'autoRegister',
  'schema',
  'ifExists',
  'references',
  'wireFormat',
  'avro',
] as const

const IF_EXISTS: readonly IfExists[] = ['FAIL', 'CREATE_VERSION', 'FIND_OR_CREATE_VERSION']

/**
 * @internal Reads the two constructor forms, `(client, artifactId, options?)` and `(client, options)`, checks every
 * option and applies the defaults. Every misuse is a `TypeError` with code `INVALID_CONFIG`.
 */
export function normalizeSerializerOptions<T>(
  artifactIdOrOptions: unknown,
  maybeOptions: unknown,
): NormalizedSerializerOptions<T> {
  let raw: Record<string, unknown>
  let artifactId: unknown
  if (typeof artifactIdOrOptions === 'string') {
    artifactId = artifactIdOrOptions
    raw = checkOptionsObject(maybeOptions, 'AvroSerializer options (third argument)')
    if ('artifactId' in raw && raw.artifactId !== undefined) {
      throw invalidConfigError(
        'AvroSerializer: the artifact id was given twice, as the second argument and as options.artifactId; give it once',
      )
    }
    if (raw.artifactResolver !== undefined) {
      throw invalidConfigError(
        'AvroSerializer: artifactId (second argument) and artifactResolver are mutually exclusive; give exactly one',
      )
    }
  } else {
    if (maybeOptions !== undefined) {
      throw invalidConfigError(
        `AvroSerializer: the second argument must be the artifact id (a string) when options follow, got ${describe(artifactIdOrOptions)}`,
      )
    }
    raw = checkOptionsObject(artifactIdOrOptions, 'AvroSerializer options (second argument)')
    artifactId = raw.artifactId
  }
  checkKnownKeys(raw, KNOWN, 'AvroSerializer')

  const resolver = raw.artifactResolver
  if (artifactId !== undefined && resolver !== undefined) {
    throw invalidConfigError(
      'AvroSerializer: artifactId and artifactResolver are mutually exclusive; give exactly one',
    )
  }
  if (artifactId === undefined && resolver === undefined) {
    throw invalidConfigError(
      "AvroSerializer: one of artifactId and artifactResolver is required, e.g. new AvroSerializer(client, 'UserEvent') " +
        'or new AvroSerializer(client, { artifactResolver: new TopicIdStrategy() })',
    )
  }
  if (artifactId !== undefined && (typeof artifactId !== 'string' || artifactId === '')) {
    throw invalidConfigError(
      `AvroSerializer: artifactId must be a non-empty string, got ${describe(artifactId)}`,
    )
  }
  const resolve = resolver === undefined ? undefined : toResolveFunction(resolver)

  const useId = checkIdType(raw.useId, 'AvroSerializer: useId')
  const wireFormat = raw.wireFormat ?? WireFormat.FRAMED_PAYLOAD
  if (wireFormat !== WireFormat.FRAMED_PAYLOAD && wireFormat !== WireFormat.MESSAGE_HEADERS) {
    throw invalidConfigError(
      `AvroSerializer: wireFormat must be WireFormat.FRAMED_PAYLOAD or WireFormat.MESSAGE_HEADERS, got ${describe(wireFormat)}`,
    )
  }
  const ifExists = raw.ifExists ?? 'FIND_OR_CREATE_VERSION'
  if (!IF_EXISTS.includes(ifExists as IfExists)) {
    throw invalidConfigError(
      `AvroSerializer: ifExists must be 'FAIL', 'CREATE_VERSION' or 'FIND_OR_CREATE_VERSION', got ${describe(ifExists)}`,
    )
  }
  const autoRegister = checkBoolean(raw.autoRegister, false, 'AvroSerializer: autoRegister')
  const strict = checkBoolean(raw.strict, false, 'AvroSerializer: strict')
  const toDict = checkFunction(
    raw.toDict,
    'AvroSerializer: toDict',
  ) as NormalizedSerializerOptions<T>['toDict']
  const schema = checkSchemaOption(raw.schema, 'AvroSerializer: schema')
  if (autoRegister && schema === undefined) {
    throw invalidConfigError(
      'AvroSerializer: autoRegister needs the schema to register: set the schema option',
    )
  }
  const references = checkReferences(raw.references)
  if (references !== undefined && !autoRegister) {
    throw invalidConfigError(
      'AvroSerializer: references are registered together with the schema, so they need autoRegister: true',
    )
  }
  return {
    artifactId: artifactId as string | undefined,
    resolve,
    toDict,
    strict,
    useId,
    autoRegister,
    schema,
    ifExists: ifExists as IfExists,
    references,
    wireFormat,
    avro: checkAvroOption(raw.avro, 'AvroSerializer: avro'),
  }
}

function checkOptionsObject(value: unknown, what: string): Record<string, unknown> {
  if (value === undefined) return {}
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidConfigError(`${what} must be an object, got ${describe(value)}`)
  }
  return value as Record<string, unknown>
}

function checkReferences(value: unknown): ArtifactReference[] | undefined {
  if (value === undefined) return undefined
  if (!Array.isArray(value)) {
    throw invalidConfigError(`AvroSerializer: references must be an array, got ${describe(value)}`)
  }
  value.forEach((reference: unknown, index) => {
    const ref = reference as Partial<Record<keyof ArtifactReference, unknown>> | null
    const ok =
      typeof ref === 'object' &&
      ref !== null &&
      typeof ref.name === 'string' &&
      ref.name !== '' &&
      typeof ref.artifactId === 'string' &&
      ref.artifactId !== '' &&
      (ref.groupId === undefined || typeof ref.groupId === 'string') &&
      (ref.version === undefined || typeof ref.version === 'string')
    if (!ok) {
      throw invalidConfigError(
        `AvroSerializer: references[${index}] must be { name, artifactId, groupId?, version? } with non-empty name and artifactId`,
      )
    }
  })
  return value as ArtifactReference[]
}
