/// <reference path="../../../scripts/integration/context.d.ts" />
import { randomBytes } from 'node:crypto'
import { describe, expect, inject, it } from 'vitest'
import { askRegistry } from '../differential/registry.mjs'
import { checkCompatibility } from './check-compatibility.js'
import type { SchemaFormat } from './formats.js'
import { EXPECTED_VERDICTS, readApicurioCases } from './test-support/apicurio-test-data.js'

// Sends every case of Apicurio's own compatibility test data to a live registry (a dry run under an artifact-level
// COMPATIBILITY rule, BACKWARD then FORWARD): its verdict must be the one the data expects, and ours must be the
// same verdict with the same causes.
const url = (inject('registryUrl') ?? process.env.X_SERDE_TEST_REGISTRY_URL)?.replace(/\/+$/, '')
const group = `compat-apicurio-data-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`
const text = (causes: readonly { description: string; context: string }[]) =>
  JSON.stringify([...new Set(causes.map((cause) => `${cause.context} ${cause.description}`))].sort())

describe.runIf(url !== undefined)(
  "Apicurio's own compatibility test data, against a live Apicurio Registry",
  () => {
    for (const [format, file] of [
      ['JSON', 'json-schema-compatibility-test-data.json'],
      ['AVRO', 'avro-compatibility-test-data.json'],
    ] as [SchemaFormat, string][]) {
      it(`gets the expected ${format} verdicts from the registry, and ours are the same with the same causes`, async () => {
        const differences: string[] = []
        for (const [index, testCase] of readApicurioCases(file).entries()) {
          for (const level of ['BACKWARD', 'FORWARD'] as const) {
            const check = {
              id: `${format.toLowerCase()}-${index}-${level.toLowerCase()}`,
              format,
              level,
              existing: [JSON.stringify(testCase.original)],
              proposed: JSON.stringify(testCase.updated),
            }
            const live = await askRegistry(url as string, group, check)
            const ours = checkCompatibility(check)
            const expected = EXPECTED_VERDICTS[testCase.compatibility][level]
            if (live.compatible !== expected)
              differences.push(`${testCase.id} ${level}: registry ${live.compatible}`)
            if (ours.compatible !== live.compatible)
              differences.push(`${testCase.id} ${level}: ours ${ours.compatible}`)
            const ourCauses = ours.issues.flatMap((issue) => (issue.cause === undefined ? [] : [issue.cause]))
            if (live.status === 400 && text(ourCauses) !== text(live.causes))
              differences.push(
                `${testCase.id} ${level}: causes ${text(ourCauses)}, registry ${text(live.causes)}`,
              )
          }
        }
        expect(differences).toEqual([])
      })
    }
  },
)
