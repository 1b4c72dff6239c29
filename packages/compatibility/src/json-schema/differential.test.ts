import { describe, expect, it } from 'vitest'
import { compareCauses, compareVerdicts, recordedCases } from '../test-support/differential.js'

// Verdicts a real Apicurio Registry 3.3.3 gave (recorded by differential/generate.mjs), compared with ours.
const cases = recordedCases('JSON')

describe('JSON Schema compatibility against the recorded verdicts of Apicurio Registry 3.3.3', () => {
  it('has at least the 500 recorded cases, refused and accepted ones among them', () => {
    expect(cases.length).toBeGreaterThanOrEqual(500)
    expect(cases.some((c) => c.registry.compatible)).toBe(true)
    expect(cases.some((c) => !c.registry.compatible)).toBe(true)
  })

  it('gives the registry’s verdict on every case', () => {
    const { agreed, disagreements } = compareVerdicts(cases)
    expect(disagreements).toEqual([])
    expect(agreed).toBe(cases.length)
  })

  it('gives the registry’s causes, description and context, on every refusal', () => {
    expect(compareCauses(cases)).toEqual([])
  })
})
