import type { ContractRule, ContractRuleSet } from '@x/registry-client'

/** The warning type of `process.emitWarning` for rules Apicurio's Java serde 3.3 treats otherwise, or nobody runs. */
export const RULES_WARNING_TYPE = 'DataContractWarning'
/** Its code. */
export const RULES_WARNING_CODE = 'X_SERDE_RULES_DIFFER'

/** Warnings given already, so that each is given once per process (bounded: past it, warnings go unrepeated). */
const given = new Set<string>()
const MAX_GIVEN = 10_000

/** The rule types the engines (this library's, the registry's and Java's serde's) run. */
const RUN_TYPES = new Set(['CEL', 'JSONATA'])

/** The levels of the ruleset in force for a version, as fetched. */
export interface RulesetLevels {
  readonly global: ContractRuleSet
  readonly artifact: ContractRuleSet
  readonly version: ContractRuleSet
}

/**
 * What to say about the ruleset in force for a version (`merged`, from `levels`), where a record's verdict depends
 * on who runs it: rules nobody runs (a type other than CEL and JSONata, such as `CEL_FIELD`; the migration rules of
 * the artifact's ruleset, which neither execute nor a migration runs), and rules Apicurio's Java serde 3.3 treats
 * otherwise than this library and the registry (it reads the artifact's ruleset only, so it skips the global and
 * version rules; it discards what a transform gives back; it refuses a record any rule fails, `NONE` action
 * included). One line per rule and reason.
 */
export function rulesetWarnings(where: string, levels: RulesetLevels, merged: ContractRuleSet): string[] {
  const lines: string[] = []
  const artifactRules = new Set<ContractRule>(levels.artifact.domainRules)
  for (const rule of merged.domainRules) {
    if (rule.disabled === true) continue
    const name = `rule '${rule.name}' of ${where}`
    if (!RUN_TYPES.has(rule.type)) {
      lines.push(
        `${name} is of type ${rule.type}, which neither this library, the registry nor Java's serde runs`,
      )
      continue
    }
    if (!artifactRules.has(rule)) {
      const level = levels.version.domainRules.includes(rule) ? 'version' : 'global'
      lines.push(
        `${name} comes from the ${level} ruleset: this library and the registry run it, Apicurio's Java serde 3.3 reads the artifact's ruleset only and skips it`,
      )
    }
    if (rule.kind === 'TRANSFORM') {
      lines.push(
        `${name} is a TRANSFORM: this library writes or hands out the record it gives back, Apicurio's Java serde 3.3 runs it and discards that record`,
      )
    } else if (rule.onFailure === 'NONE' || rule.onFailure === undefined) {
      lines.push(
        `${name} fails with action ${rule.onFailure ?? 'unset'}: this library and the registry let the record through, Apicurio's Java serde 3.3 refuses it`,
      )
    }
  }
  for (const rule of levels.artifact.migrationRules) {
    if (rule.disabled === true) continue
    lines.push(
      `migration rule '${rule.name}' of the artifact ruleset of ${where} is never run (migrations run the migration rules of the versions' rulesets), here, by the registry or by Java's serde`,
    )
  }
  return lines
}

/** Gives each line once per process, as a `process` warning (`process.on('warning')` sees them). */
export function warnOnce(lines: readonly string[]): void {
  for (const line of lines) {
    if (given.has(line)) continue
    if (given.size < MAX_GIVEN) given.add(line)
    const emit = (globalThis as { process?: { emitWarning?: (message: string, options: object) => void } })
      .process?.emitWarning
    emit?.call(globalThis.process, line, { type: RULES_WARNING_TYPE, code: RULES_WARNING_CODE })
  }
}
