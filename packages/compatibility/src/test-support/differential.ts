import { readFileSync } from 'node:fs'
import { checkCompatibility } from '../check-compatibility.js'
import type { SchemaFormat } from '../formats.js'
import type { CompatibilityLevel } from '../levels.js'

/** One cause of the registry's refusal. */
export interface RecordedCause {
  description: string
  context: string
}

/** A differential case with its schema texts and the verdict the real registry gave. */
export interface RecordedCase {
  id: string
  format: SchemaFormat
  level: CompatibilityLevel
  mutation: string
  existing: string[]
  proposed: string
  references?: Record<string, string>
  registry: { compatible: boolean; status: number; causes: RecordedCause[] }
}

interface CaseFile {
  format: SchemaFormat
  registry: string
  schemas: string[]
  cases: {
    id: string
    level: CompatibilityLevel
    mutation: string
    existing: number[]
    proposed: number
    references?: Record<string, number>
    registry: RecordedCase['registry']
  }[]
}

const FILES: Record<SchemaFormat, string> = { AVRO: 'avro', JSON: 'json', PROTOBUF: 'protobuf' }

/** The recorded cases of one format (packages/compatibility/differential/cases/<format>.json). */
export function recordedCases(format: SchemaFormat): RecordedCase[] {
  const url = new URL(`../../differential/cases/${FILES[format]}.json`, import.meta.url)
  const file = JSON.parse(readFileSync(url, 'utf8')) as CaseFile
  return file.cases.map((c) => ({
    id: c.id,
    format,
    level: c.level,
    mutation: c.mutation,
    existing: c.existing.map((index) => file.schemas[index] as string),
    proposed: file.schemas[c.proposed] as string,
    ...(c.references === undefined
      ? {}
      : {
          references: Object.fromEntries(
            Object.entries(c.references).map(([name, index]) => [name, file.schemas[index] as string]),
          ),
        }),
    registry: c.registry,
  }))
}

/** Where our checker and the registry part: the case, the registry's verdict and ours. */
export interface Disagreement {
  id: string
  registry: boolean
  ours: boolean
  issues: string[]
}

/** Our verdict for each case, and the cases where it is not the registry's (the registry's 422 counts as refused). */
export function compareVerdicts(cases: readonly RecordedCase[]): {
  agreed: number
  disagreements: Disagreement[]
} {
  const disagreements: Disagreement[] = []
  for (const c of cases) {
    const ours = checkCompatibility({
      format: c.format,
      level: c.level,
      existing: c.existing,
      proposed: c.proposed,
      ...(c.references === undefined ? {} : { references: c.references }),
    })
    if (ours.compatible !== c.registry.compatible) {
      disagreements.push({
        id: c.id,
        registry: c.registry.compatible,
        ours: ours.compatible,
        issues: ours.issues.map((issue) => `${issue.path}: ${issue.message}`),
      })
    }
  }
  return { agreed: cases.length - disagreements.length, disagreements }
}

/** The cases of a 400 refusal whose causes (as a sorted list) differ from the ones our issues carry. */
export function compareCauses(
  cases: readonly RecordedCase[],
): { id: string; registry: string[]; ours: string[] }[] {
  const differ: { id: string; registry: string[]; ours: string[] }[] = []
  const text = (cause: RecordedCause) => `${cause.context} ${cause.description}`
  for (const c of cases) {
    if (c.registry.status !== 400) continue
    const ours = checkCompatibility({
      format: c.format,
      level: c.level,
      existing: c.existing,
      proposed: c.proposed,
      ...(c.references === undefined ? {} : { references: c.references }),
    })
    const mine = ours.issues.flatMap((issue) => (issue.cause === undefined ? [] : [text(issue.cause)])).sort()
    const theirs = c.registry.causes.map(text).sort()
    if (JSON.stringify(mine) !== JSON.stringify(theirs))
      differ.push({ id: c.id, registry: theirs, ours: mine })
  }
  return differ
}
