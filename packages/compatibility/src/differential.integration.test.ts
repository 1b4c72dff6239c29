/// <reference path="../../../scripts/integration/context.d.ts" />
import { randomBytes } from 'node:crypto'
import { describe, expect, inject, it } from 'vitest'
import { askRegistry } from '../differential/registry.mjs'
import { checkCompatibility } from './check-compatibility.js'
import type { SchemaFormat } from './formats.js'
import { type RecordedCase, recordedCases } from './test-support/differential.js'

// Re-asks a live Apicurio Registry for every 10th recorded case of each format: its answer today must still be the
// recorded one (so the recordings are not stale), and for Avro ours must be the same.
const url = (inject('registryUrl') ?? process.env.X_SERDE_TEST_REGISTRY_URL)?.replace(/\/+$/, '')
const group = `compat-diff-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`

const sample = (format: SchemaFormat): RecordedCase[] =>
  recordedCases(format).filter((_, index) => index % 10 === 0)
const text = (causes: readonly { description: string; context: string }[]) =>
  causes.map((cause) => `${cause.context} ${cause.description}`).sort()

describe.runIf(url !== undefined)('the recorded verdicts, asked again of a live Apicurio Registry', () => {
  for (const format of ['AVRO', 'JSON', 'PROTOBUF'] as const) {
    it(`are still the registry's answers for every 10th ${format} case`, async () => {
      const changed: string[] = []
      for (const [index, c] of sample(format).entries()) {
        const live = await askRegistry(url as string, group, c, `${format.toLowerCase()}${index}`)
        const same =
          live.compatible === c.registry.compatible &&
          live.status === c.registry.status &&
          (live.status !== 400 ||
            JSON.stringify(text(live.causes)) === JSON.stringify(text(c.registry.causes)))
        if (!same)
          changed.push(`${c.id}: recorded ${JSON.stringify(c.registry)}, now ${JSON.stringify(live)}`)
        if (format === 'AVRO') {
          const ours = checkCompatibility({
            format,
            level: c.level,
            existing: c.existing,
            proposed: c.proposed,
            ...(c.references === undefined ? {} : { references: c.references }),
          })
          if (ours.compatible !== live.compatible)
            changed.push(`${c.id}: ours ${ours.compatible}, live ${live.compatible}`)
        }
      }
      expect(changed).toEqual([])
    })
  }
})
