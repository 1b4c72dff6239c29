import { describe, expect, it } from 'vitest'
import { checkCompatibility } from './check-compatibility.js'
import type { SchemaFormat } from './formats.js'
import { type ApicurioCase, EXPECTED_VERDICTS, readApicurioCases } from './test-support/apicurio-test-data.js'

/** Every case whose verdicts differ from the expected ones, with ours and the first issue of each. */
function disagreements(format: SchemaFormat, cases: readonly ApicurioCase[]): string[] {
  const found: string[] = []
  for (const testCase of cases) {
    const existing = [JSON.stringify(testCase.original)]
    const proposed = JSON.stringify(testCase.updated)
    const expected = EXPECTED_VERDICTS[testCase.compatibility]
    const wrong = (['BACKWARD', 'FORWARD'] as const)
      .map((level) => ({ level, result: checkCompatibility({ format, level, existing, proposed }) }))
      .filter(({ level, result }) => result.compatible !== expected[level])
    if (wrong.length > 0) {
      const said = wrong.map(
        ({ level, result }) => `${level} ${result.compatible} ${result.issues[0]?.message ?? ''}`,
      )
      found.push(`${testCase.id} (${testCase.compatibility}): ${said.join('; ')}`)
    }
  }
  return found
}

describe("Apicurio Registry's own compatibility test data", () => {
  it('gives the expected BACKWARD and FORWARD verdicts on every one of the 145 JSON Schema cases', () => {
    const cases = readApicurioCases('json-schema-compatibility-test-data.json')
    expect(cases.length).toBe(145)
    expect(disagreements('JSON', cases)).toEqual([])
  })

  it('gives the expected BACKWARD and FORWARD verdicts on every one of the 4 Avro cases', () => {
    const cases = readApicurioCases('avro-compatibility-test-data.json')
    expect(cases.length).toBe(4)
    expect(disagreements('AVRO', cases)).toEqual([])
  })
})
