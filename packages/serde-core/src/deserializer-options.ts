import { invalidConfigError } from '@x/errors'
import type { IdType, ReadIdSize, SerializationContext } from '@x/wire-format'
import {
  checkArtifactId,
  checkBoolean,
  checkFunction,
  checkIdSize,
  checkIdType,
  checkKnownKeys,
  checkOptionsObject,
} from './option-checks.js'
import { type NormalizedRulesOptions, normalizeRulesOptions, type RulesOptions } from './rules-options.js'
import { type ArtifactResolver, type ResolveFunction, toResolveFunction } from './strategies.js'

/**
 * The options every format's deserializer shares (each format adds its own).
 *
 * @typeParam T - What `deserialize` returns: the result of `fromDict`, or the decoded value.
 */
export interface DeserializerOptions<T = unknown> {
  /**
   * Turns the decoded value into the caller's type; its result is what `deserialize` returns. If it throws,
   * `deserialize` throws a `DeserializationError` with its error as `cause`. Declared as a method so that a callback
   * annotated with the decoded type it expects (`(d: Record<string, unknown>) => …`) is accepted.
   * @default undefined (the decoded value is returned as it is)
   */
  fromDict?(value: unknown, ctx: SerializationContext): T
  /**
   * How the id of a framed message is read: as a `globalId` or a `contentId`. It must match what the producer
   * wrote; Apicurio's Java serdes 3.x write `contentId`. (An id header names its own type.)
   * @default 'globalId'
   */
  useId?: IdType
  /**
   * How many bytes a frame gives the id: `4` (Apicurio 3's and Confluent's default), `8` (Apicurio 2.x's default and
   * 3.x's `Legacy8ByteIdHandler`: the id as a big-endian long), or `'auto'` for a topic that holds both (read as
   * Apicurio's Java `OptimisticFallbackIdHandler` reads: the first 4 id bytes, unless they are all zero and at least
   * 4 more bytes follow, then 8; it assumes ids in 1 … 2^31 − 1). A frame whose id reads as 0 is a
   * `DeserializationError` naming the likely cause (no registry assigns id 0). Id headers are always 8 bytes:
   * headers mode is unaffected.
   * @default 4
   */
  idSize?: ReadIdSize
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
   * Read into the latest version of the resolved artifact (fetched on the first call for that artifact and cached)
   * instead of the writer's schema. Needs `artifactId` or `artifactResolver`; exclusive with a fixed reader schema.
   * @default false
   */
  useLatestVersion?: boolean
  /**
   * Data-contract rules: the `READ` rules of each message's version after decoding, and migrations to a target
   * version (see {@link RulesOptions}).
   * @default off
   */
  rules?: RulesOptions
}

/**
 * For format packages: the shared deserializer options, checked, with every default applied (what
 * `normalizeDeserializerOptions` returns and a `DeserializerSetup` takes).
 */
export interface NormalizedDeserializerOptions<T> {
  fromDict: ((value: unknown, ctx: SerializationContext) => T) | undefined
  useId: IdType
  idSize: ReadIdSize
  artifactId: string | undefined
  resolve: ResolveFunction | undefined
  useLatestVersion: boolean
  /** `undefined` when rules are off. */
  rules: NormalizedRulesOptions | undefined
}

/** The option names every deserializer knows. */
export const DESERIALIZER_OPTION_NAMES = [
  'fromDict',
  'useId',
  'idSize',
  'artifactId',
  'artifactResolver',
  'useLatestVersion',
  'rules',
] as const

/**
 * For format packages: checks the shared deserializer options in a fixed order (the shared ones first, in their
 * documented order), refuses names that neither they nor `formatOptionNames` have, and applies the defaults. `hasReaderSchema` says whether the format's
 * options fixed a reader schema (exclusive with `useLatestVersion`). Every conflict is a `TypeError` with code
 * `INVALID_CONFIG` whose message starts with `owner`.
 */
export function normalizeDeserializerOptions<T>(
  owner: string,
  options: unknown,
  formatOptionNames: readonly string[],
  readerSchemaOption?: string,
): { options: NormalizedDeserializerOptions<T>; raw: Record<string, unknown> } {
  const raw = checkOptionsObject(options, `${owner} options`)
  checkKnownKeys(raw, [...DESERIALIZER_OPTION_NAMES, ...formatOptionNames], owner)
  const { artifactId, artifactResolver } = raw
  const useLatestVersion = checkBoolean(raw.useLatestVersion, false, `${owner}: useLatestVersion`)

  if (artifactId !== undefined && artifactResolver !== undefined) {
    throw invalidConfigError(`${owner}: artifactId and artifactResolver are mutually exclusive; give one`)
  }
  if (useLatestVersion && artifactId === undefined && artifactResolver === undefined) {
    throw invalidConfigError(
      `${owner}: useLatestVersion: true needs artifactId or artifactResolver to know which artifact is latest`,
    )
  }
  if (useLatestVersion && readerSchemaOption !== undefined && raw[readerSchemaOption] !== undefined) {
    throw invalidConfigError(
      `${owner}: useLatestVersion and ${readerSchemaOption} are mutually exclusive: the reader schema comes from one of them`,
    )
  }
  if (!useLatestVersion && (artifactId !== undefined || artifactResolver !== undefined)) {
    throw invalidConfigError(
      `${owner}: ${artifactId !== undefined ? 'artifactId' : 'artifactResolver'} is only used with useLatestVersion: true (it names the reader schema's artifact); set useLatestVersion or remove it`,
    )
  }
  const useId = checkIdType(raw.useId, `${owner}: useId`)
  const idSize = checkIdSize(raw.idSize, true, `${owner}: idSize`)
  checkArtifactId(artifactId, `${owner}: artifactId`)
  return {
    options: {
      fromDict: checkFunction(
        raw.fromDict,
        `${owner}: fromDict`,
      ) as NormalizedDeserializerOptions<T>['fromDict'],
      useId,
      idSize,
      artifactId: artifactId as string | undefined,
      resolve: artifactResolver === undefined ? undefined : toResolveFunction(artifactResolver),
      useLatestVersion,
      rules: normalizeRulesOptions(raw.rules, owner),
    },
    raw,
  }
}
