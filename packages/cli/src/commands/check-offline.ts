import { extname, relative, resolve } from 'node:path'
import {
  type CompatibilityLevel,
  type CompatibilityResult,
  checkCompatibility,
  isCompatibilityLevel,
  isSchemaFormat,
  type SchemaFormat,
} from '@x/compatibility'
import type { Config } from '../config.js'
import type { Io } from '../io.js'
import { setOwn } from '../own-property.js'
import { CheckFailed, UsageError } from '../usage-error.js'
import {
  type GivenReferences,
  givenReferences,
  lockedReferences,
  usedReferences,
} from './offline-references.js'
import { describeAgainst, faultText, type OfflineOutcome, printOutcome } from './offline-report.js'
import {
  artifactOf,
  gitShow,
  type LockedSchema,
  lockedEntry,
  lockedText,
  readFileText,
  type SourcedText,
} from './offline-sources.js'

export interface OfflineCheckFlags {
  level?: string
  against?: string[]
  reference?: string[]
  referenceDir?: string[]
  artifact?: string
  group?: string
  type?: string
  lockfile?: string
  json?: boolean
  strict?: boolean
}

const EXTENSIONS: Readonly<Record<string, SchemaFormat>> = {
  '.avsc': 'AVRO',
  '.avro': 'AVRO',
  '.json': 'JSON',
  '.proto': 'PROTOBUF',
}

/**
 * `x-serde check --offline FILE… --level LEVEL --against SOURCE…`: whether each FILE may follow its earlier
 * versions (oldest first) under the compatibility level, decided as Apicurio Registry 3.3.3 decides it, with no
 * registry. A source is a file (one FILE only), `git:REF` (each FILE as it is at that git ref), or `lockfile` (the
 * version `x-serde pull` wrote for each FILE's artifact, checked against its SHA-256; the level defaults to the rule
 * `pull` recorded for it). Prints one line per FILE and each issue (or one JSON document per line with `--json`).
 * Exits 2 on bad usage and when a schema or reference cannot be read or a name a schema uses is not given (naming
 * the file), else 1 when a FILE is not compatible.
 */
export async function checkOffline(
  paths: readonly string[],
  flags: OfflineCheckFlags,
  config: Config,
  io: Io,
): Promise<void> {
  const against = flags.against ?? []
  if (against.length === 0) {
    throw new UsageError(
      '--offline needs at least one --against FILE|git:REF|lockfile (the earlier versions)',
    )
  }
  if (paths.length > 1) {
    const file = against.find((source) => !source.startsWith('git:') && source !== 'lockfile')
    if (file !== undefined)
      throw new UsageError(
        `--against ${file} is the earlier version of one FILE, got ${paths.length}: check them one by one, or give git:REF or lockfile`,
      )
    if (flags.artifact !== undefined)
      throw new UsageError(`--artifact names one FILE's artifact, got ${paths.length}`)
  }
  if (flags.level !== undefined) levelOf(flags.level, false)
  if (flags.type !== undefined) formatOf(flags.type, paths[0] as string)
  const given = await givenReferences(io, flags.referenceDir ?? [], flags.reference ?? [])
  const outcomes: OfflineOutcome[] = []
  for (const path of paths) {
    const outcome = await checkOne(path, against, flags, config, io, given)
    printOutcome(io, outcome, flags.json === true)
    outcomes.push(outcome)
  }
  const faulty = outcomes.filter((outcome) => outcome.fault !== undefined)
  if (faulty.length > 0) {
    const only = faulty.length === 1 ? (faulty[0] as OfflineOutcome) : undefined
    throw new UsageError(
      only?.fault !== undefined
        ? faultText(only.fault)
        : `${faulty.length} of ${paths.length} schemas could not be checked: ${faulty.map((o) => o.file).join(', ')}`,
    )
  }
  const refused = outcomes.filter((outcome) => !outcome.result.compatible)
  if (refused.length === 1 && paths.length === 1) {
    const [{ file, level, against: earlier }] = refused as [OfflineOutcome]
    throw new CheckFailed(`${file} is not ${level} compatible with ${describeEarlier(earlier)}`)
  }
  if (refused.length > 0) {
    throw new CheckFailed(
      `${refused.length} of ${paths.length} schemas are not compatible: ${refused.map((o) => o.file).join(', ')}`,
    )
  }
}

function describeEarlier(earlier: readonly SourcedText[]): string {
  return earlier.length === 1 ? describeAgainst(earlier) : `${earlier.length} earlier versions`
}

async function checkOne(
  path: string,
  against: readonly string[],
  flags: OfflineCheckFlags,
  config: Config,
  io: Io,
  shared: GivenReferences,
): Promise<OfflineOutcome> {
  const proposed: SourcedText = { source: path, text: await readFileText(io, path) }
  const configured = config.files?.[relative(io.cwd, resolve(io.cwd, path))]
  let lock: LockedSchema | undefined
  const earlier: SourcedText[] = []
  for (const source of against) {
    if (source.startsWith('git:')) {
      earlier.push({ source, text: await gitShow(io, source.slice(4), path) })
    } else if (source === 'lockfile') {
      const artifactId = artifactOf(path, flags.artifact, configured?.artifactId)
      lock ??= await lockedEntry(
        io,
        flags.lockfile,
        config,
        path,
        artifactId,
        flags.group ?? configured?.groupId,
      )
      earlier.push({ source: `${lock.entry.file} (lockfile)`, text: await lockedText(io, lock.entry) })
    } else {
      earlier.push({ source, text: await readFileText(io, source) })
    }
  }
  const level = levelOf(flags.level ?? lock?.entry.compatibility, lock !== undefined)
  const format = formatOf(flags.type ?? configured?.type ?? lock?.entry.artifactType, path)
  const given = new Map(shared)
  if (lock !== undefined) {
    const locked: GivenReferences = new Map()
    await lockedReferences(io, lock, locked)
    for (const [name, text] of locked) if (!given.has(name)) given.set(name, text)
  }
  const outcome = (result: CompatibilityResult, fault?: OfflineOutcome['fault']): OfflineOutcome => ({
    file: path,
    format,
    level,
    against: earlier,
    result,
    ...(fault === undefined ? {} : { fault }),
  })
  // the versions the level compares: the latest only, or every one under a transitive level
  const compared = level === 'NONE' ? [] : level.endsWith('_TRANSITIVE') ? earlier : earlier.slice(-1)
  const used = usedReferences(format, [proposed, ...compared], given)
  if ('name' in used) {
    const fault = { source: used.source, reason: missingWords(format, used.name) }
    return outcome(unreadable(fault), fault)
  }
  const result = checkCompatibility({
    format,
    level,
    existing: earlier.map((e) => e.text),
    proposed: proposed.text,
    references: used.references,
    ...(flags.strict === true
      ? { strict: true, existingReferences: await earlierReferences(io, against, used.used, lock) }
      : {}),
  })
  const fault =
    result.unreadable !== undefined
      ? (faultOf(format, [proposed, ...[...compared].reverse()], used.used, used.references) ?? {
          source: path,
          reason: `cannot be compared: ${result.unreadable}`,
        })
      : faultOf(format, [], used.used, used.references)
  return fault === undefined ? outcome(result) : outcome(unreadable(fault), fault)
}

/**
 * With `--strict`, the references of each earlier version, to compare with the proposed version's: at `git:REF` the
 * same reference files as they are at that ref (one missing there is left out), for `lockfile` the locked ones, for
 * a FILE the proposed version's (nothing to compare).
 */
async function earlierReferences(
  io: Io,
  against: readonly string[],
  used: ReadonlyMap<string, SourcedText>,
  lock: LockedSchema | undefined,
): Promise<(Record<string, string> | undefined)[]> {
  const out: (Record<string, string> | undefined)[] = []
  for (const source of against) {
    if (source.startsWith('git:')) {
      const references: Record<string, string> = {}
      for (const [name, file] of used) {
        try {
          setOwn(references, name, await gitShow(io, source.slice(4), file.source))
        } catch (error) {
          if (!(error instanceof UsageError)) throw error
        }
      }
      out.push(references)
    } else if (source === 'lockfile' && lock !== undefined) {
      const locked: GivenReferences = new Map()
      await lockedReferences(io, lock, locked)
      out.push(Object.fromEntries([...locked].map(([name, { text }]) => [name, text])))
    } else {
      out.push(undefined)
    }
  }
  return out
}

/** The verdict on a schema nothing could be compared for: one issue naming the file at fault. */
function unreadable(fault: { source: string; reason: string }): CompatibilityResult {
  return {
    compatible: false,
    issues: [{ path: '', message: faultText(fault).replace(/\.?$/, '.') }],
    unreadable: fault.reason,
  }
}

function missingWords(format: SchemaFormat, name: string): string {
  const quoted = JSON.stringify(name)
  const unmapped = 'no --reference or --reference-dir gives'
  if (format === 'PROTOBUF') return `imports ${quoted}, which ${unmapped}`
  if (format === 'JSON') return `refers to ${quoted} ($ref), which ${unmapped}`
  return `uses the type ${quoted}, which it does not define and ${unmapped}`
}

/**
 * The first schema, then the first referenced schema, that cannot be read on its own (compared with itself, as the
 * checker reads it), and why. A referenced schema is read even when the comparison did not need it, so a broken
 * reference is found before it is used.
 */
function faultOf(
  format: SchemaFormat,
  schemas: readonly SourcedText[],
  used: ReadonlyMap<string, SourcedText>,
  references: Readonly<Record<string, string>>,
): { source: string; reason: string } | undefined {
  for (const schema of schemas) {
    const reason = reasonUnreadable(format, schema.text, references)
    if (reason !== undefined)
      return { source: schema.source, reason: `cannot be read as ${format}: ${reason}` }
  }
  for (const [name, schema] of used) {
    const others = Object.fromEntries(Object.entries(references).filter(([other]) => other !== name))
    const reason = reasonUnreadable(format, schema.text, others)
    if (reason !== undefined)
      return {
        source: schema.source,
        reason: `cannot be read as ${format} (reference ${JSON.stringify(name)}): ${reason}`,
      }
  }
  return undefined
}

function reasonUnreadable(
  format: SchemaFormat,
  text: string,
  references: Readonly<Record<string, string>>,
): string | undefined {
  const { unreadable: reason } = checkCompatibility({
    format,
    level: 'BACKWARD',
    existing: [text],
    proposed: text,
    references,
  })
  return reason?.replace(/^The (existing|proposed) schema /, 'the schema ')
}

/** `--level` in any case, else the lockfile's level for the artifact. */
function levelOf(given: string | undefined, fromLockfile: boolean): CompatibilityLevel {
  if (given === undefined) {
    throw new UsageError(
      fromLockfile
        ? '--offline needs --level: the lockfile records no COMPATIBILITY rule for this artifact'
        : '--offline needs --level (one of the seven compatibility levels)',
    )
  }
  const level = given.toUpperCase()
  if (!isCompatibilityLevel(level)) {
    throw new UsageError(
      `--level must be one of BACKWARD, BACKWARD_TRANSITIVE, FORWARD, FORWARD_TRANSITIVE, FULL, FULL_TRANSITIVE, NONE (any case), got ${given}`,
    )
  }
  return level
}

function formatOf(type: string | undefined, path: string): SchemaFormat {
  if (type !== undefined) {
    const upper = type.toUpperCase()
    if (isSchemaFormat(upper)) return upper
    throw new UsageError(`--type must be AVRO, JSON or PROTOBUF, got ${type}`)
  }
  const format = EXTENSIONS[extname(path).toLowerCase()]
  if (format === undefined) {
    throw new UsageError(
      `Cannot tell the format of ${path} from its extension: give --type AVRO|JSON|PROTOBUF`,
    )
  }
  return format
}
