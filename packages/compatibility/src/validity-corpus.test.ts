import { describe, expect, it } from 'vitest'
import { readValidityCorpus, validityCauseKeys } from './test-support/registry-corpus.js'
import { validateSchema } from './validate-schema.js'

const cases = readValidityCorpus()

describe('validateSchema against the VALIDITY answers of Apicurio Registry 3.3.3', () => {
  it('has the recorded corpus: every format, valid and refused schemas, both levels', () => {
    expect(cases.length).toBeGreaterThanOrEqual(170)
    for (const format of ['AVRO', 'JSON', 'PROTOBUF'] as const) {
      const ofFormat = cases.filter((item) => item.format === format)
      expect(ofFormat.some((item) => item.registry.status === 200)).toBe(true)
      expect(ofFormat.some((item) => item.registry.status === 400)).toBe(true)
    }
    expect(cases.some((item) => item.level === 'SYNTAX_ONLY')).toBe(true)
  })

  it('lists every case where the registry is wrong as a refusal it should not have made', () => {
    for (const item of cases.filter((each) => each.registryWrong !== undefined))
      expect(item.registry.status).toBe(400)
  })

  it.each(cases.map((item) => [item.id, item] as const))(
    '%s gets the registry answer and causes',
    (_id, item) => {
      const issues = validateSchema({
        format: item.format,
        schema: item.schema,
        references: item.references ?? {},
        level: item.level ?? 'FULL',
      })
      const valid = item.registryWrong !== undefined || item.registry.status === 200
      expect(issues.length === 0).toBe(valid)
      if (valid) return
      const loose = item.looseDescription !== undefined
      const ours = issues.flatMap((issue) => (issue.cause === undefined ? [] : [issue.cause]))
      expect(validityCauseKeys(ours, loose)).toEqual(validityCauseKeys(item.registry.causes, loose))
    },
  )
})
