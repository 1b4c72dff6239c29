import { describeValue, invalidConfigError } from '@x/errors'
import { type ArtifactReference, IF_EXISTS, type IfExists } from '@x/registry-client'
import { type IdSize, type IdType, type SerializationContext, WireFormat } from '@x/wire-format'
import {
  checkArtifactId,
  checkBoolean,
  checkFunction,
  checkIdSize,
  checkIdType,
  checkKnownKeys,
  checkOptionsObject,
  checkReferences,
} from './option-checks.js'
import { type NormalizedRulesOptions, normalizeRulesOptions, type RulesOptions } from './rules-options.js'
import { type ArtifactResolver, type ResolveFunction, toResolveFunction } from './strategies.js'

/**
 * The options every format's serializer shares (each format adds its own: `avro`/`strict` for Avro, `validate` for
 * JSON Schema, `messageType`/`framing` for Protobuf).
 *
 * @typeParam T - The type of the values given to `serialize` (what `toDict` takes).
 */
export interface SerializerOptions<T = unknown> {
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
   * `SerializationError` with its error as `cause`. Declared as a method so that a callback annotated with a
   * narrower parameter type is accepted.
   * @default undefined (the value is encoded as it is)
   */
  toDict?(value: T, ctx: SerializationContext): unknown
  /**
   * Which registry id goes into the message. Apicurio's Java serdes 3.x write `contentId`: set
   * `useId: 'contentId'` to interoperate with their defaults.
   * @default 'globalId'
   */
  useId?: IdType
  /**
   * How many bytes the frame gives the id: `4` (Apicurio 3's and Confluent's default) or `8` (`0x00` + the id as a
   * big-endian long, as Apicurio 2.x wrote by default and 3.x's `Legacy8ByteIdHandler` writes), for readers that
   * expect it. No effect in `MESSAGE_HEADERS` mode, whose id header is always 8 bytes.
   * @default 4
   */
  idSize?: IdSize
  /**
   * Register `schema` under the artifact (with `ifExists`) on the first call for that artifact and use the ids the
   * registry answers, instead of fetching the artifact's latest version.
   * @default false
   */
  autoRegister?: boolean
  /** The schema to register; required by `autoRegister`, ignored otherwise. Its form is the format's. */
  schema?: object | string
  /**
   * What the registry does with `autoRegister` when the artifact exists: `FIND_OR_CREATE_VERSION` reuses a
   * version with the same content (and references), `CREATE_VERSION` always adds one, `FAIL` refuses (409).
   * @default 'FIND_OR_CREATE_VERSION'
   */
  ifExists?: IfExists
  /**
   * Apicurio artifact references registered with `schema` (what it uses from other artifacts, by the name it uses
   * them under). Only with `autoRegister`.
   * @default []
   */
  references?: ArtifactReference[]
  /**
   * Where the schema id travels: `FRAMED_PAYLOAD` (`0x00` + the id in `idSize` bytes + payload, from `serialize`) or
   * `MESSAGE_HEADERS` (id in an 8-byte `apicurio.<field>.<useId>` header, bare payload, from `serializeMessage`).
   * @default WireFormat.FRAMED_PAYLOAD
   */
  wireFormat?: WireFormat
  /**
   * Data-contract rules: the `WRITE` rules of the artifact's version run on each value before it is encoded (see
   * {@link RulesOptions}; `migration` has no effect on a serializer).
   * @default off
   */
  rules?: RulesOptions
}

/**
 * For format packages: the shared serializer options, checked, with every default applied (what
 * `normalizeSerializerOptions` returns and a `SerializerSetup` takes).
 */
export interface NormalizedSerializerOptions<T> {
  artifactId: string | undefined
  resolve: ResolveFunction | undefined
  toDict: ((value: T, ctx: SerializationContext) => unknown) | undefined
  useId: IdType
  idSize: IdSize
  autoRegister: boolean
  /** The `schema` option as given; the format checks it and turns it into the text to register. */
  schema: unknown
  ifExists: IfExists
  references: ArtifactReference[] | undefined
  wireFormat: WireFormat
  /** `undefined` when rules are off. */
  rules: NormalizedRulesOptions | undefined
}

/** The option names every serializer knows. */
export const SERIALIZER_OPTION_NAMES = [
  'artifactId',
  'artifactResolver',
  'toDict',
  'useId',
  'idSize',
  'autoRegister',
  'schema',
  'ifExists',
  'references',
  'wireFormat',
  'rules',
] as const

/**
 * For format packages: reads the two constructor forms, `(client, artifactId, options?)` and `(client, options)`, checks the
 * shared options, refuses names that neither they nor `formatOptionNames` have, and applies the defaults. Returns the
 * normalized shared options and the raw options object (for the format's own). Every misuse is a `TypeError` with
 * code `INVALID_CONFIG` whose message starts with `owner` (`AvroSerializer: …`).
 */
export function normalizeSerializerOptions<T>(
  owner: string,
  artifactIdOrOptions: unknown,
  maybeOptions: unknown,
  formatOptionNames: readonly string[],
): { options: NormalizedSerializerOptions<T>; raw: Record<string, unknown> } {
  let raw: Record<string, unknown>
  let artifactId: unknown
  if (typeof artifactIdOrOptions === 'string') {
    artifactId = artifactIdOrOptions
    raw = checkOptionsObject(maybeOptions, `${owner} options (third argument)`)
    if ('artifactId' in raw && raw.artifactId !== undefined) {
      throw invalidConfigError(
        `${owner}: the artifact id was given twice, as the second argument and as options.artifactId; give it once`,
      )
    }
    if (raw.artifactResolver !== undefined) {
      throw invalidConfigError(
        `${owner}: artifactId (second argument) and artifactResolver are mutually exclusive; give exactly one`,
      )
    }
  } else {
    if (maybeOptions !== undefined) {
      throw invalidConfigError(
        `${owner}: the second argument must be the artifact id (a string) when options follow, got ${describeValue(artifactIdOrOptions)}`,
      )
    }
    raw = checkOptionsObject(artifactIdOrOptions, `${owner} options (second argument)`)
    artifactId = raw.artifactId
  }
  checkKnownKeys(raw, [...SERIALIZER_OPTION_NAMES, ...formatOptionNames], owner)

  const resolver = raw.artifactResolver
  if (artifactId !== undefined && resolver !== undefined) {
    throw invalidConfigError(
      `${owner}: artifactId and artifactResolver are mutually exclusive; give exactly one`,
    )
  }
  if (artifactId === undefined && resolver === undefined) {
    throw invalidConfigError(
      `${owner}: one of artifactId and artifactResolver is required, e.g. new ${owner}(client, 'UserEvent') ` +
        `or new ${owner}(client, { artifactResolver: new TopicIdStrategy() })`,
    )
  }
  checkArtifactId(artifactId, `${owner}: artifactId`)
  const resolve = resolver === undefined ? undefined : toResolveFunction(resolver)

  const useId = checkIdType(raw.useId, `${owner}: useId`)
  const idSize = checkIdSize(raw.idSize, false, `${owner}: idSize`)
  const wireFormat = raw.wireFormat ?? WireFormat.FRAMED_PAYLOAD
  if (wireFormat !== WireFormat.FRAMED_PAYLOAD && wireFormat !== WireFormat.MESSAGE_HEADERS) {
    throw invalidConfigError(
      `${owner}: wireFormat must be WireFormat.FRAMED_PAYLOAD or WireFormat.MESSAGE_HEADERS, got ${describeValue(wireFormat)}`,
    )
  }
  const ifExists = raw.ifExists ?? 'FIND_OR_CREATE_VERSION'
  if (!IF_EXISTS.includes(ifExists as IfExists)) {
    throw invalidConfigError(
      `${owner}: ifExists must be 'FAIL', 'CREATE_VERSION' or 'FIND_OR_CREATE_VERSION', got ${describeValue(ifExists)}`,
    )
  }
  const autoRegister = checkBoolean(raw.autoRegister, false, `${owner}: autoRegister`)
  const toDict = checkFunction(raw.toDict, `${owner}: toDict`) as NormalizedSerializerOptions<T>['toDict']
  if (autoRegister && raw.schema === undefined) {
    throw invalidConfigError(`${owner}: autoRegister needs the schema to register: set the schema option`)
  }
  const references = checkReferences(raw.references, owner)
  if (references !== undefined && !autoRegister) {
    throw invalidConfigError(
      `${owner}: references are registered together with the schema, so they need autoRegister: true`,
    )
  }
  return {
    options: {
      artifactId: artifactId as string | undefined,
      resolve,
      toDict,
      useId,
      idSize,
      autoRegister,
      schema: raw.schema,
      ifExists: ifExists as IfExists,
      references,
      wireFormat,
      rules: normalizeRulesOptions(raw.rules, owner),
    },
    raw,
  }
}
