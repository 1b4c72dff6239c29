import { invalidConfigError } from '@x/errors'
import type { CelEvaluator } from './cel-evaluator.js'
import { CelJsEvaluator } from './cel-js-evaluator.js'
import { compileCelRule } from './cel-rule.js'
import { isRecordObject } from './cel-values.js'
import type { CompiledRule, CompiledRuleSet, RuleOutcome } from './compiled-rule.js'
import { type JsonataEvaluator, SyncJsonataEvaluator } from './jsonata-evaluator.js'
import { compileJsonataRule } from './jsonata-rule.js'
import type { ExecuteMode, ExecuteResult, MigrateResult, Rule, RuleSet, RuleViolation } from './types.js'

/** Options of {@link RulesEngine}. */
export interface RulesEngineOptions {
  /**
   * The CEL engine.
   * @default new CelJsEvaluator() (`@marcbachmann/cel-js`)
   */
  cel?: CelEvaluator
  /**
   * The JSONata engine.
   * @default new SyncJsonataEvaluator() (`jsonata@1.8.7`, synchronous)
   */
  jsonata?: JsonataEvaluator
  /**
   * How long one rule's evaluation on one record may run, in milliseconds: one still running then is stopped and
   * fails as a violation saying it ran out of its budget, so that no expression holds the event loop for long (a
   * JSONata infinite recursion or huge range, CEL comprehensions nested over the record's lists). A ruleset of n
   * rules may take up to n times this. `Infinity`: no limit. A JSONata rule reads the clock every few evaluation
   * steps; a CEL rule with nested comprehensions each time it reads a field of the record (CEL's `matches` runs in
   * linear time and CEL has no recursion, so other CEL rules need no clock).
   * @default 50
   */
  timeoutMs?: number
}

/** The time budget of a rule's evaluation when the options give none. */
const DEFAULT_TIMEOUT_MS = 50

/** The record to run rules on and the mode to run. */
export interface ExecuteInput {
  /** Rules of this mode run, and `WRITEREAD` rules whatever the mode. */
  mode: ExecuteMode
  /** The record as the registry would receive it (JSON-shaped; `bigint` for integers beyond 2^53). */
  record: Record<string, unknown>
}

/** One version of an artifact and its ruleset, as a step of a migration chain. */
export interface VersionRuleSet {
  /** The version's name. */
  version: string
  /** The version's ruleset (the registry runs the version level's migration rules only). */
  ruleSet: CompiledRuleSet
}

/** A migration request: the record written with `fromVersion`, read as `toVersion`. */
export interface MigrateInput {
  /** The version the record was written with. */
  fromVersion: string
  /** The version the reader expects. */
  toVersion: string
  /** The record as the registry would receive it. */
  record: Record<string, unknown>
}

/**
 * Runs Apicurio Registry 3.3 data-contract rulesets on records, verdict for verdict with the registry's own execute
 * and migrate endpoints. Synchronous throughout: CEL and JSONata (1.8) evaluate without promises.
 */
export class RulesEngine {
  #cel: CelEvaluator | undefined
  #jsonata: JsonataEvaluator | undefined
  readonly #timeoutMs: number | undefined

  /** @throws TypeError (code `INVALID_CONFIG`) when `timeoutMs` is not a positive number. */
  constructor(options: RulesEngineOptions = {}) {
    this.#cel = options.cel
    this.#jsonata = options.jsonata
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) {
      throw invalidConfigError(
        `timeoutMs must be a positive number of milliseconds, not ${typeof timeoutMs === 'number' ? timeoutMs : typeof timeoutMs}`,
      )
    }
    this.#timeoutMs = timeoutMs === Number.POSITIVE_INFINITY ? undefined : timeoutMs
  }

  /** Compiles every CEL and JSONata rule of `ruleSet` once; an expression that does not parse fails when run. */
  compile(ruleSet: RuleSet): CompiledRuleSet {
    return {
      domainRules: (ruleSet.domainRules ?? []).map((rule) => this.#compileRule(rule)),
      migrationRules: (ruleSet.migrationRules ?? []).map((rule) => this.#compileRule(rule)),
    }
  }

  /**
   * Runs the domain rules of `mode` (and `WRITEREAD`) in order, as the registry's execute endpoint does: a
   * transform that yields an object replaces the record for the rules after it; a condition holds only when it
   * yields `true`; an evaluation error fails the rule with its message; a failure whose action is `ERROR` stops.
   * It does not throw for a record: whatever a rule's evaluation throws (a record nested deeper than
   * `MAX_RECORD_DEPTH`, an engine's own error) is that rule's failure, its message the error's.
   */
  execute(compiled: CompiledRuleSet, input: ExecuteInput): ExecuteResult {
    return run(compiled.domainRules, input.mode, true, input.record)
  }

  /**
   * The top-level fields of a record that the domain rules of `mode` (and `WRITEREAD`) read, each once: running
   * {@link execute} on a record holding only these fields (as `toRuleRecord(value, fields)` makes it) gives the same
   * verdict, violations and transformed record as on the whole record. `undefined` when a rule may read any field
   * (a JSONata rule), so the whole record is needed.
   */
  fieldsRead(compiled: CompiledRuleSet, mode: ExecuteMode): readonly string[] | undefined {
    const fields = new Set<string>()
    for (const compiledRule of compiled.domainRules) {
      if (compiledRule === null || compiledRule.rule.disabled === true) continue
      if (compiledRule.rule.mode !== mode && compiledRule.rule.mode !== 'WRITEREAD') continue
      if (compiledRule.fields === undefined) return undefined
      for (const field of compiledRule.fields) fields.add(field)
    }
    return [...fields]
  }

  /**
   * Migrates a record across the versions of `chain` (oldest first), as the registry's migrate endpoint does: each
   * hop runs the migration rules of the hop's target version (`UPGRADE` going up, `DOWNGRADE` going down); a hop
   * with a failed rule stops the chain and the record stays as the hop before left it.
   * @throws TypeError when `fromVersion` or `toVersion` is not in `chain`.
   */
  migrate(chain: readonly VersionRuleSet[], input: MigrateInput): MigrateResult {
    const from = chain.findIndex((step) => step.version === input.fromVersion)
    const to = chain.findIndex((step) => step.version === input.toVersion)
    if (from < 0) throw new TypeError(`Version not found: ${input.fromVersion}`)
    if (to < 0) throw new TypeError(`Version not found: ${input.toVersion}`)
    const mode = to >= from ? 'UPGRADE' : 'DOWNGRADE'
    const step = to >= from ? 1 : -1
    let record = input.record
    let executedRules = 0
    let failedRules = 0
    const violations: RuleViolation[] = []
    for (let index = from; index !== to; ) {
      index += step
      const hop = run(chain[index]!.ruleSet.migrationRules, mode, false, record)
      executedRules += hop.executedRules
      failedRules += hop.failedRules
      violations.push(...hop.violations)
      if (!hop.passed) break
      if (hop.transformedRecord !== undefined) record = hop.transformedRecord
    }
    return { passed: failedRules === 0, transformedRecord: record, violations, executedRules, failedRules }
  }

  #compileRule(rule: Rule): CompiledRule | null {
    if (rule.type === 'CEL') {
      this.#cel ??= new CelJsEvaluator()
      return compileCelRule(rule, this.#cel, this.#timeoutMs)
    }
    if (rule.type === 'JSONATA') {
      this.#jsonata ??= new SyncJsonataEvaluator()
      return compileJsonataRule(rule, this.#jsonata, this.#timeoutMs)
    }
    return null
  }
}

/** Runs the rules of `mode` (and, with `writeRead`, of `WRITEREAD`) on `record`, in order. */
function run(
  rules: readonly (CompiledRule | null)[],
  mode: string,
  writeRead: boolean,
  record: Record<string, unknown>,
): ExecuteResult {
  let transformed: Record<string, unknown> | undefined
  let executedRules = 0
  const violations: RuleViolation[] = []
  for (const compiled of rules) {
    if (compiled === null || compiled.rule.disabled === true) continue
    if (compiled.rule.mode !== mode && !(writeRead && compiled.rule.mode === 'WRITEREAD')) continue
    executedRules++
    let outcome: RuleOutcome
    try {
      outcome = compiled.run(transformed ?? record)
    } catch (error) {
      outcome = { error: thrownMessage(error) }
    }
    const { rule } = compiled
    if (outcome.error === undefined) {
      if (rule.kind === 'TRANSFORM') {
        if (isRecordObject(outcome.value)) transformed = outcome.value
        continue
      }
      if (outcome.value === true) continue
    }
    const action = rule.onFailure ?? null
    violations.push({
      ruleName: rule.name,
      message: outcome.error ?? `Condition failed: ${rule.name}`,
      action,
    })
    if (action === 'ERROR') break
  }
  const result: ExecuteResult = {
    passed: violations.length === 0,
    violations,
    executedRules,
    failedRules: violations.length,
  }
  // the registry reports a record only when a transform gave back another object than the one it was given
  if (transformed !== undefined && transformed !== record) result.transformedRecord = transformed
  return result
}

/** The message of whatever a rule threw, without throwing again (a thrown value may not even turn into text). */
function thrownMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  try {
    return `The rule threw ${String(error)}`
  } catch {
    return `The rule threw a value of type ${typeof error}`
  }
}
