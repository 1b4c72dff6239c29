import { readFileSync } from 'node:fs'
import type { SchemaFormat } from '../formats.js'
import type { CompatibilityLevel } from '../levels.js'
import type { ValidityLevel } from '../validate-schema.js'

/** What the real registry answered for one case. */
export interface RegistryVerdict {
  readonly compatible: boolean
  readonly status: number
  /** The causes of its rule violation (status 400). */
  readonly causes?: readonly { description: string; context: string }[]
  /** Its error, when it could not compare the schemas (status 500). */
  readonly error?: string
}

/** One recorded case: the versions registered (oldest first), the rule, the proposed version, the verdict. */
export interface RecordedCase {
  readonly id: string
  readonly level: CompatibilityLevel
  readonly existing: readonly string[]
  readonly proposed: string
  readonly references?: Readonly<Record<string, string>>
  readonly registry: RegistryVerdict
  /** Why the registry's answer is wrong, for a case listed as an exception; `ours` is then the answer expected. */
  readonly exception?: string
  readonly ours?: {
    readonly compatible: boolean
    readonly causes: readonly { description: string; context: string }[]
  }
}

/** The cases of one file of `corpus/`, as the generator recorded them. */
export function readCorpus(file: string): RecordedCase[] {
  const url = new URL(`../../corpus/${file}`, import.meta.url)
  return (JSON.parse(readFileSync(url, 'utf8')) as { cases: RecordedCase[] }).cases
}

/** A cause as one comparable text. */
export function causeKey(cause: { description: string; context: string }): string {
  return `${cause.context} | ${cause.description}`
}

/** The verdict a case expects of the checker: the registry's, or ours where the registry is listed as wrong. */
export function expectedOf(item: RecordedCase): {
  compatible: boolean
  causes?: readonly { description: string; context: string }[]
} {
  if (item.exception !== undefined && item.ours !== undefined) return item.ours
  return item.registry
}

/** One recorded VALIDITY case: a schema, the rule's level, and what the registry answered a dry run with it. */
export interface ValidityCase {
  readonly id: string
  readonly format: SchemaFormat
  readonly level?: ValidityLevel
  readonly schema: string
  readonly references?: Readonly<Record<string, string>>
  /** Why a cause's description is compared by its start only (a parser's own wording). */
  readonly looseDescription?: string
  /** Why the registry's answer is wrong; the schema is then expected to be valid. */
  readonly registryWrong?: string
  readonly registry: {
    readonly status: number
    readonly title?: string
    readonly causes: readonly { description: string; context: string }[]
  }
}

/** The cases of `corpus/validity-registry-verdicts.json`. */
export function readValidityCorpus(): ValidityCase[] {
  const url = new URL('../../corpus/validity-registry-verdicts.json', import.meta.url)
  return (JSON.parse(readFileSync(url, 'utf8')) as { cases: ValidityCase[] }).cases
}

/** The registry's causes as comparable texts; a loose description is cut after `JSON schema not valid:`. */
export function validityCauseKeys(
  causes: readonly { description: string; context: string }[],
  loose: boolean,
): string[] {
  return causes
    .map((cause) =>
      causeKey(
        loose && cause.description.startsWith('JSON schema not valid: ')
          ? { ...cause, description: 'JSON schema not valid: …' }
          : cause,
      ),
    )
    .sort()
}
