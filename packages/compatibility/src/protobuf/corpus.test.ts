import { describe, expect, it } from 'vitest'
import { checkCompatibility } from '../check-compatibility.js'
import { causeKey, expectedOf, readCorpus } from '../test-support/registry-corpus.js'

const cases = readCorpus('protobuf-registry-verdicts.json')

describe('Protobuf compatibility against the verdicts of Apicurio Registry 3.3.3', () => {
  it('has the recorded corpus: at least 150 cases, transitive chains among them', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150)
    expect(cases.filter((item) => item.existing.length >= 3).length).toBeGreaterThanOrEqual(10)
    expect(new Set(cases.map((item) => item.level)).size).toBe(7)
  })

  it('lists every case where the registry is wrong with both answers', () => {
    for (const item of cases.filter((each) => each.exception !== undefined)) {
      expect(item.ours).toBeDefined()
      expect(item.registry.status).toBe(500)
    }
  })

  it.each(cases.map((item) => [item.id, item] as const))(
    '%s gets the registry verdict and causes',
    (_id, item) => {
      const result = checkCompatibility({
        format: 'PROTOBUF',
        level: item.level,
        existing: item.existing,
        proposed: item.proposed,
        references: item.references ?? {},
      })
      const expected = expectedOf(item)
      expect(result.compatible).toBe(expected.compatible)
      if (expected.causes !== undefined) {
        const ours = new Set(
          result.issues.map((issue) => (issue.cause === undefined ? issue.message : causeKey(issue.cause))),
        )
        expect([...ours].sort()).toEqual([...new Set(expected.causes.map(causeKey))].sort())
      } else if (!expected.compatible) {
        // the registry could not compare the schemas: one issue for the schema as a whole
        expect(result.issues.map((issue) => issue.path)).toEqual([''])
      }
    },
  )
})
