import { readFileSync } from 'node:fs'

/** One case of Apicurio Registry's own compatibility test data (see `apicurio-test-data/README.md`). */
export interface ApicurioCase {
  readonly id: string
  readonly enabled: boolean
  readonly compatibility: 'backward' | 'both' | 'none'
  readonly original: unknown
  readonly updated: unknown
}

/** The verdicts a case's `compatibility` stands for, as upstream's `CompatibilityTestExecutor` reads it. */
export const EXPECTED_VERDICTS = {
  backward: { BACKWARD: true, FORWARD: false },
  both: { BACKWARD: true, FORWARD: true },
  none: { BACKWARD: false, FORWARD: false },
} as const

/** The enabled cases of one file of `apicurio-test-data/`. */
export function readApicurioCases(file: string): ApicurioCase[] {
  const url = new URL(`../../apicurio-test-data/${file}`, import.meta.url)
  return (JSON.parse(readFileSync(url, 'utf8')) as { tests: ApicurioCase[] }).tests.filter(
    (testCase) => testCase.enabled,
  )
}
