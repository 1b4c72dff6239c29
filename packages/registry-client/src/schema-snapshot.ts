import { describeValue, invalidConfigError, messageOf } from '@x/errors'

/** The version of the snapshot format this library writes and reads. */
export const SNAPSHOT_VERSION = 1

/** A reference of a version in a snapshot: always with its group and literal version, as the registry resolved it. */
export interface SnapshotReference {
  name: string
  groupId: string
  artifactId: string
  version: string
}

/** One artifact version in a snapshot: its coordinates, both ids, its type, its text and its references. */
export interface SnapshotVersion {
  groupId: string
  artifactId: string
  version: string
  /** `AVRO`, `JSON`, `PROTOBUF`, or another type the registry holds. */
  artifactType: string
  /** The globalId, as decimal text (ids are 64-bit). */
  globalId: string
  /** The contentId, as decimal text. */
  contentId: string
  /** Whether this version was the artifact's latest when the snapshot was taken: it then answers `getSchema`. */
  latest: boolean
  /** The references the registry lists for this version. */
  references: SnapshotReference[]
  /** The schema text exactly as the registry returned it. */
  schema: string
}

/**
 * The schemas a deployment reads, in one JSON document (`takeSnapshot`, `x-serde pull --snapshot`): each artifact
 * version with its ids, type, text and references, and every version those reference. Given to a client as its
 * `snapshot` option, it answers their lookups with no request.
 */
export interface SchemaSnapshot {
  /** The format's version: 1. A snapshot of another version is refused. */
  snapshotVersion: typeof SNAPSHOT_VERSION
  /** When it was taken (ISO 8601), for people; not read. */
  takenAt?: string
  versions: SnapshotVersion[]
}

/**
 * A snapshot as JSON text, checked: the snapshot a `JSON.parse` of it gives when it is one this library can read.
 *
 * @param source - How to name the text in an error (a file name). @default 'the snapshot'
 * @throws TypeError (code `INVALID_CONFIG`) for text that is not JSON, a `snapshotVersion` other than 1, or a
 *   version that lacks a field or has one of the wrong kind (the message names which).
 */
export function parseSnapshot(text: string, source = 'the snapshot'): SchemaSnapshot {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw refused(source, `it is not JSON: ${messageOf(error)}`, error)
  }
  return checkSnapshot(value, source)
}

/**
 * A snapshot file read and checked ({@link parseSnapshot}).
 *
 * @throws TypeError (code `INVALID_CONFIG`) for a file that cannot be read, and as {@link parseSnapshot}.
 */
export async function readSnapshot(path: string): Promise<SchemaSnapshot> {
  const { readFile } = await import('node:fs/promises')
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw refused(path, `it cannot be read: ${messageOf(error)}`, error)
  }
  return parseSnapshot(text, path)
}

const TEXT_FIELDS = ['groupId', 'artifactId', 'version', 'artifactType', 'schema'] as const
const ID_FIELDS = ['globalId', 'contentId'] as const
const REFERENCE_FIELDS = ['name', 'groupId', 'artifactId', 'version'] as const

/**
 * A value checked to be a snapshot this library reads ({@link SchemaSnapshot}); returned as it is.
 *
 * @throws TypeError (code `INVALID_CONFIG`) as {@link parseSnapshot}.
 */
export function checkSnapshot(value: unknown, source = 'the snapshot'): SchemaSnapshot {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw refused(source, `it must be a JSON object, got ${describeValue(value)}`)
  }
  const { snapshotVersion, versions } = value as Partial<SchemaSnapshot>
  if (snapshotVersion !== SNAPSHOT_VERSION) {
    throw refused(
      source,
      `its snapshotVersion must be ${SNAPSHOT_VERSION} (the version this library reads), got ${describeValue(snapshotVersion)}`,
    )
  }
  if (!Array.isArray(versions)) {
    throw refused(source, `its "versions" must be an array, got ${describeValue(versions)}`)
  }
  versions.forEach((version: unknown, index) => {
    const at = `versions[${index}]`
    if (typeof version !== 'object' || version === null) {
      throw refused(source, `${at} must be an object, got ${describeValue(version)}`)
    }
    const fields = version as Record<string, unknown>
    for (const name of TEXT_FIELDS) {
      if (typeof fields[name] !== 'string' || (name !== 'schema' && fields[name] === '')) {
        throw refused(source, `${at}.${name} must be a non-empty string, got ${describeValue(fields[name])}`)
      }
    }
    for (const name of ID_FIELDS) {
      if (!isIdText(fields[name])) {
        throw refused(
          source,
          `${at}.${name} must be an id as decimal text (0 to 2^63 - 1), got ${describeValue(fields[name])}`,
        )
      }
    }
    if (typeof fields.latest !== 'boolean') {
      throw refused(source, `${at}.latest must be true or false, got ${describeValue(fields.latest)}`)
    }
    if (!Array.isArray(fields.references)) {
      throw refused(source, `${at}.references must be an array, got ${describeValue(fields.references)}`)
    }
    fields.references.forEach((reference: unknown, position) => {
      for (const name of REFERENCE_FIELDS) {
        const field = (reference as Record<string, unknown> | null)?.[name]
        if (typeof field !== 'string' || field === '') {
          throw refused(
            source,
            `${at}.references[${position}].${name} must be a non-empty string, got ${describeValue(field)}`,
          )
        }
      }
    })
  })
  return value as SchemaSnapshot
}

/** An id as the registry hands them out, in decimal text: 0 to 2^63 - 1. */
function isIdText(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,19}$/.test(value) && BigInt(value) <= MAX_ID
}

const MAX_ID = 2n ** 63n - 1n

function refused(source: string, problem: string, cause?: unknown): TypeError {
  return invalidConfigError(`Cannot use ${source} as a schema snapshot: ${problem}`, cause)
}
