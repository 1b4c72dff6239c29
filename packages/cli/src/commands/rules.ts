import { writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { ContractRuleSet, ContractVerdict, RegisteredSchema } from '@x/registry-client'
import { isJsonObject, parseJsonTree } from '@x/registry-client/json'
import { avroRuleDoubles } from '../avro-rule-doubles.js'
import type { Config } from '../config.js'
import { type Connection, type ConnectionFlags, connect } from '../connection.js'
import { type Io, readText } from '../io.js'
import { toJsonText } from '../json-output.js'
import { checkJsonNesting } from '../json-text.js'
import { referenceTexts } from '../reference-texts.js'
import { CheckFailed, UsageError } from '../usage-error.js'

/** Which ruleset a `rules` command is about. */
export interface RulesLevelFlags extends ConnectionFlags {
  /** The global ruleset (every artifact of the registry). */
  global?: boolean
  artifact?: string
  version?: string
}

export interface RulesGetFlags extends RulesLevelFlags {
  /** The ruleset in force for the version (global, artifact and version merged). */
  merged?: boolean
  out?: string
}

export interface RulesTestFlags extends ConnectionFlags {
  artifact?: string
  version?: string
  mode?: 'WRITE' | 'READ'
  /** A ruleset file to test instead of the registry's merged ruleset. */
  ruleset?: string
  againstRegistry?: boolean
}

type Level =
  | { kind: 'global' }
  | { kind: 'artifact'; artifactId: string }
  | { kind: 'version'; artifactId: string; version: string }

function levelOf(flags: RulesLevelFlags): Level {
  if (flags.global === true) {
    if (flags.artifact !== undefined || flags.version !== undefined) {
      throw new UsageError('--global names the global ruleset: leave out --artifact and --version')
    }
    return { kind: 'global' }
  }
  if (flags.artifact === undefined) {
    throw new UsageError('Name the ruleset: --global, --artifact ID, or --artifact ID --version V')
  }
  if (flags.version === undefined) return { kind: 'artifact', artifactId: flags.artifact }
  return { kind: 'version', artifactId: flags.artifact, version: flags.version }
}

function describeLevel(level: Level, groupId: string): string {
  if (level.kind === 'global') return 'the global ruleset'
  const artifact = `${groupId}/${level.artifactId}`
  return level.kind === 'artifact'
    ? `the ruleset of ${artifact}`
    : `the ruleset of ${artifact} version ${level.version}`
}

/** A ruleset file: `{ domainRules?, migrationRules? }` as the registry's `ContractRuleSet`. */
async function readRuleset(io: Io, path: string): Promise<ContractRuleSet> {
  let value: unknown
  try {
    const text = await readText(io, path)
    checkJsonNesting(text)
    value = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`Cannot read the ruleset file ${path}: ${(error as Error).message}`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError(
      `The ruleset file ${path} must hold a JSON object with domainRules and migrationRules`,
    )
  }
  const set = value as Partial<ContractRuleSet>
  return { domainRules: set.domainRules ?? [], migrationRules: set.migrationRules ?? [] }
}

/**
 * `x-serde rules get`: prints (or writes with `--out`) a data-contract ruleset as JSON: the global one, an
 * artifact's, a version's, or with `--merged` the ruleset in force for a version.
 */
export async function rulesGet(flags: RulesGetFlags, config: Config, io: Io): Promise<void> {
  await using connection = connect(flags, config, io)
  const level = levelOf(flags)
  let ruleset: ContractRuleSet
  if (flags.merged === true) {
    if (level.kind !== 'version') throw new UsageError('--merged needs --artifact ID --version V')
    ruleset = await connection.client.getMergedRuleset(level.artifactId, level.version)
  } else ruleset = await read(connection, level)
  const text = `${JSON.stringify(ruleset, null, 2)}\n`
  if (flags.out === undefined) {
    io.stdout(text)
    return
  }
  await writeFile(resolve(io.cwd, flags.out), text)
  io.stdout(
    `${flags.out} ← ${describeLevel(level, connection.groupId)}${flags.merged === true ? ' (merged)' : ''}: ${count(ruleset)}\n`,
  )
}

/** `x-serde rules set FILE`: stores a ruleset file as the global ruleset, an artifact's or a version's. */
export async function rulesSet(path: string, flags: RulesLevelFlags, config: Config, io: Io): Promise<void> {
  const ruleset = await readRuleset(io, path)
  await using connection = connect(flags, config, io)
  const level = levelOf(flags)
  const client = connection.client
  const stored =
    level.kind === 'global'
      ? await client.setGlobalRuleset(ruleset)
      : level.kind === 'artifact'
        ? await client.setArtifactRuleset(level.artifactId, ruleset)
        : await client.setVersionRuleset(level.artifactId, level.version, ruleset)
  io.stdout(`${path} → ${describeLevel(level, connection.groupId)}: ${count(stored)}\n`)
}

/**
 * `x-serde rules test RECORD`: runs a record (JSON text, `@FILE`, or `-` for standard input) through the local
 * rules engine, with the version's merged ruleset from the registry or `--ruleset FILE`, and with
 * `--against-registry` through the registry's own execute endpoint; prints both verdicts. Exits 1 when a verdict
 * refuses the record. The record is read as the registry reads it, and as the serializers map their values (the
 * JSON Apicurio's Java serde 3.3 sends): `5.0` is a double and `5` an int, an integer beyond 2^53 exact; with an Avro
 * schema, an integer in a `double` field is a double, as the serializer gives it.
 */
export async function rulesTest(
  recordArgument: string,
  flags: RulesTestFlags,
  config: Config,
  io: Io,
): Promise<void> {
  if (flags.artifact === undefined) throw new UsageError('rules test needs --artifact ID')
  const mode = flags.mode ?? 'WRITE'
  const version = flags.version ?? 'branch=latest'
  const given = await readRecord(io, recordArgument)
  await using connection = connect(flags, config, io)
  const record = await asSerialized(connection, flags.artifact, version, given)
  const ruleset =
    flags.ruleset === undefined
      ? await connection.client.getMergedRuleset(flags.artifact, version)
      : await readRuleset(io, flags.ruleset)
  const { RulesEngine } = await import('@x/rules')
  const engine = new RulesEngine()
  const local = engine.execute(engine.compile(ruleset as Parameters<typeof engine.compile>[0]), {
    mode,
    record,
  })
  const verdicts: [string, ContractVerdict][] = [['local', local as ContractVerdict]]
  if (flags.againstRegistry === true) {
    verdicts.push([
      'registry',
      await connection.client.executeRules(flags.artifact, version, { mode, record }),
    ])
  }
  for (const [who, verdict] of verdicts) io.stdout(describeVerdict(who, mode, verdict))
  if (verdicts.length === 2 && !sameVerdict(verdicts[0]![1], verdicts[1]![1])) {
    io.stdout('the local engine and the registry disagree\n')
  }
  const refused = verdicts.filter(([, verdict]) => !verdict.passed).length
  if (refused > 0) throw new CheckFailed(`${refused} of ${verdicts.length} verdicts refuse the record`)
}

/**
 * The record as the version's serializer gives it to the rules: for an Avro schema, an integer written where the
 * schema has a `double` or a `float` is a double (see `avroRuleDoubles`). The record as given when the version's
 * schema cannot be read (the rules then say what is missing) or is of another format.
 */
async function asSerialized(
  connection: Connection,
  artifactId: string,
  version: string,
  record: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  let schema: RegisteredSchema
  try {
    schema = await connection.client.getSchemaVersion(artifactId, version)
  } catch {
    return record
  }
  if (schema.artifactType !== 'AVRO') return record
  const references =
    schema.globalId === undefined ? [] : (await referenceTexts(connection, schema.globalId)).values()
  const { ruleDouble } = await import('@x/rules')
  return avroRuleDoubles(schema.schema, references, record, ruleDouble) as Record<string, unknown>
}

async function readRecord(io: Io, argument: string): Promise<Record<string, unknown>> {
  let text: string
  if (argument === '-') text = (await io.readStdin()).toString('utf8')
  else if (argument.startsWith('@')) text = await readText(io, argument.slice(1))
  else text = argument
  let value: unknown
  try {
    checkJsonNesting(text)
    const { ruleRecordOfJson } = await import('@x/rules')
    value = ruleRecordOfJson(parseJsonTree(text))
  } catch (error) {
    throw new UsageError(`The record is not JSON: ${(error as Error).message}`)
  }
  if (!isJsonObject(value as never)) throw new UsageError('The record must be a JSON object')
  return value as Record<string, unknown>
}

function read(connection: Connection, level: Level): Promise<ContractRuleSet> {
  const client = connection.client
  if (level.kind === 'global') return client.getGlobalRuleset()
  if (level.kind === 'artifact') return client.getArtifactRuleset(level.artifactId)
  return client.getVersionRuleset(level.artifactId, level.version)
}

function count(ruleset: ContractRuleSet): string {
  const rules = (n: number, what: string) => `${n} ${what} rule${n === 1 ? '' : 's'}`
  return `${rules(ruleset.domainRules.length, 'domain')}, ${rules(ruleset.migrationRules.length, 'migration')}`
}

function describeVerdict(who: string, mode: string, verdict: ContractVerdict): string {
  const head = `${who.padEnd(9)}${verdict.passed ? 'passed' : 'refused'} (${mode}: ${verdict.executedRules} rules run, ${verdict.failedRules} failed)\n`
  const lines = verdict.violations.map(
    (violation) =>
      `         - ${violation.ruleName} [${violation.action ?? 'no action'}]: ${violation.message}\n`,
  )
  const record =
    verdict.transformedRecord === undefined
      ? ''
      : `         transformed: ${toJsonText(verdict.transformedRecord, 0)}\n`
  return head + lines.join('') + record
}

function sameVerdict(a: ContractVerdict, b: ContractVerdict): boolean {
  const names = (v: ContractVerdict) => v.violations.map((violation) => violation.ruleName).join('\u0000')
  return (
    a.passed === b.passed &&
    names(a) === names(b) &&
    toJsonText(a.transformedRecord ?? null, 0) === toJsonText(b.transformedRecord ?? null, 0)
  )
}
