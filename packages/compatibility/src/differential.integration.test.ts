/// <reference path="../../../scripts/integration/context.d.ts" />
import { randomBytes } from 'node:crypto'
import { describe, expect, inject, it } from 'vitest'
import { validityVerdictOf } from '../corpus/registry-verdicts.mjs'
import { askRegistry } from '../differential/registry.mjs'
import { checkCompatibility } from './check-compatibility.js'
import type { SchemaFormat } from './formats.js'
import { type RecordedCase, recordedCases } from './test-support/differential.js'
import { readCorpus, readValidityCorpus, validityCauseKeys } from './test-support/registry-corpus.js'
import { validateSchema } from './validate-schema.js'

// Re-asks a live Apicurio Registry for every 10th recorded case of each format: its answer today must still be the
// recorded one (so the recordings are not stale), and ours must be the same verdict with the same causes.
const url = (inject('registryUrl') ?? process.env.X_SERDE_TEST_REGISTRY_URL)?.replace(/\/+$/, '')
const group = `${process.env.X_SERDE_CORPUS_GROUP_PREFIX ?? 'compat-diff'}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`

const CORPUS: Record<SchemaFormat, string | undefined> = {
  AVRO: undefined,
  JSON: 'json-registry-verdicts.json',
  PROTOBUF: 'protobuf-registry-verdicts.json',
}

// The corpus cases listed as exceptions (the registry ran out of heap on them) are never sent again.
const sample = (format: SchemaFormat): RecordedCase[] => {
  const file = CORPUS[format]
  const corpus: RecordedCase[] =
    file === undefined
      ? []
      : readCorpus(file)
          .filter((item) => item.exception === undefined)
          .map((item) => ({
            id: item.id,
            format,
            level: item.level,
            mutation: 'corpus',
            existing: [...item.existing],
            proposed: item.proposed,
            ...(item.references === undefined ? {} : { references: { ...item.references } }),
            registry: {
              compatible: item.registry.compatible,
              status: item.registry.status,
              causes: [...(item.registry.causes ?? [])],
            },
          }))
  return [...recordedCases(format), ...corpus].filter((_, index) => index % 10 === 0)
}
const text = (causes: readonly { description: string; context: string }[]) =>
  [...new Set(causes.map((cause) => `${cause.context} ${cause.description}`))].sort()

describe.runIf(url !== undefined)('the recorded verdicts, asked again of a live Apicurio Registry', () => {
  for (const format of ['AVRO', 'JSON', 'PROTOBUF'] as const) {
    it(`are still the registry's answers for every 10th ${format} case, and ours are the same`, async () => {
      const cases = sample(format)
      expect(cases.length).toBeGreaterThan(25)
      const changed: string[] = []
      for (const [index, c] of cases.entries()) {
        const live = await askRegistry(url as string, group, c, `${format.toLowerCase()}${index}`)
        const same =
          live.compatible === c.registry.compatible &&
          live.status === c.registry.status &&
          (live.status !== 400 ||
            JSON.stringify(text(live.causes)) === JSON.stringify(text(c.registry.causes)))
        if (!same)
          changed.push(`${c.id}: recorded ${JSON.stringify(c.registry)}, now ${JSON.stringify(live)}`)
        const ours = checkCompatibility({
          format,
          level: c.level,
          existing: c.existing,
          proposed: c.proposed,
          ...(c.references === undefined ? {} : { references: c.references }),
        })
        if (ours.compatible !== live.compatible)
          changed.push(`${c.id}: ours ${ours.compatible}, live ${live.compatible}`)
        else if (live.status === 400) {
          const oursCauses = text(
            ours.issues.flatMap((issue) => (issue.cause === undefined ? [] : [issue.cause])),
          )
          if (JSON.stringify(oursCauses) !== JSON.stringify(text(live.causes)))
            changed.push(
              `${c.id}: our causes ${JSON.stringify(oursCauses)}, live ${JSON.stringify(text(live.causes))}`,
            )
        }
      }
      expect(changed).toEqual([])
    })
  }

  it('still refuses under VALIDITY what the recorded answers say, with the same causes, and so do we', async () => {
    const cases = readValidityCorpus().filter((item) => item.registryWrong === undefined)
    expect(cases.length).toBeGreaterThan(150)
    const cache = new Map<string, string>()
    const changed: string[] = []
    for (const item of cases) {
      const live = await validityVerdictOf(url as string, group, item, cache, 'validity')
      const loose = item.looseDescription !== undefined
      const liveCauses = validityCauseKeys(live.causes, loose)
      if (
        live.status !== item.registry.status ||
        JSON.stringify(liveCauses) !== JSON.stringify(validityCauseKeys(item.registry.causes, loose))
      )
        changed.push(`${item.id}: recorded ${JSON.stringify(item.registry)}, now ${JSON.stringify(live)}`)
      const issues = validateSchema({
        format: item.format,
        schema: item.schema,
        references: item.references ?? {},
        level: item.level ?? 'FULL',
      })
      if ((issues.length === 0) !== (live.status === 200))
        changed.push(`${item.id}: ours ${JSON.stringify(issues)}, live ${live.status}`)
      const ours = validityCauseKeys(
        issues.flatMap((issue) => (issue.cause === undefined ? [] : [issue.cause])),
        loose,
      )
      if (live.status !== 200 && JSON.stringify(ours) !== JSON.stringify(liveCauses))
        changed.push(`${item.id}: our causes ${JSON.stringify(ours)}, live ${JSON.stringify(liveCauses)}`)
    }
    expect(changed).toEqual([])
  })
})
