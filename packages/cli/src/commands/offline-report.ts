import type { CompatibilityLevel, CompatibilityResult, SchemaFormat } from '@x/compatibility'
import type { Io } from '../io.js'
import { toJsonText } from '../json-output.js'
import type { SourcedText } from './offline-sources.js'

/** What one schema of `check --offline` came to. */
export interface OfflineOutcome {
  file: string
  format: SchemaFormat
  level: CompatibilityLevel
  against: readonly SourcedText[]
  result: CompatibilityResult
  /** Set when nothing could be compared: the file (schema or reference) at fault and why. */
  fault?: { source: string; reason: string }
}

/** The earlier versions in a few words: up to three by name, more as their count, first and last. */
export function describeAgainst(against: readonly SourcedText[]): string {
  if (against.length <= 3) return against.map((e) => e.source).join(', ')
  return `${against.length} earlier versions, ${against[0]?.source} to ${against.at(-1)?.source}`
}

/** The fault as one sentence naming its file, on one line: a line break quoted from a file is shown as a backslash and `n`. */
export function faultText(fault: { source: string; reason: string }): string {
  return oneLine(`${fault.source} ${fault.reason}`)
}

function oneLine(text: string): string {
  return text.replace(/\r/g, '\\r').replace(/\n/g, '\\n')
}

/** One line for the schema (then one per issue), or one JSON document on one line with `--json`. */
export function printOutcome(io: Io, outcome: OfflineOutcome, json: boolean): void {
  const { file, format, level, against, result, fault } = outcome
  if (json) {
    const sources = against.map((e) => e.source)
    const faulty = fault === undefined ? {} : { unreadableFile: fault.source }
    io.stdout(`${toJsonText({ file, format, level, against: sources, ...result, ...faulty }, 0)}\n`)
    return
  }
  if (fault !== undefined) {
    io.stdout(`unreadable   ${file}: ${faultText(fault)}\n`)
    return
  }
  const verdict = result.compatible ? 'compatible  ' : 'incompatible'
  io.stdout(`${verdict} ${file} under ${level} against ${describeAgainst(against)}\n`)
  for (const issue of result.issues) {
    io.stdout(`  - ${issue.path === '' ? '(schema)' : issue.path}: ${oneLine(issue.message)}\n`)
  }
}
