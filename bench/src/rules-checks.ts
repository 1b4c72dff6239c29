import { deepStrictEqual, throws } from 'node:assert/strict'
import { RegistryClient } from '@x/registry-client'
import type { BenchEnv } from './cases.js'
import { EVENT_RECORD, GROUP_ID } from './fixtures.js'
import { plain } from './frames.js'
import { RULE_FORMATS } from './rules-cases.js'
import { MASKED_RECORD, type RuleFormat, ruleArtifact } from './rules-fixtures.js'

/**
 * Before the data-contract rows are timed, for each format: with the CEL condition the serializer writes the same
 * bytes as with rules off and refuses a record the condition fails; with the JSONata transform it writes the
 * masked record's bytes; the deserializer gives back what the rules-off deserializer gives (masked by the
 * transform). Throws an `AssertionError` on the first difference; returns one line per format, for the log.
 */
export async function checkRules(env: BenchEnv): Promise<string[]> {
  const done: string[] = []
  const client = new RegistryClient({ url: env.url, groupId: GROUP_ID })
  try {
    for (const format of ['avro', 'json', 'proto'] as const satisfies readonly RuleFormat[]) {
      const { ctx, label } = RULE_FORMATS[format]
      const ids = env.ruleIds[format]
      const cel = RULE_FORMATS[format].serializer(client, ruleArtifact(format, 'cel'))
      await cel.prepare(ctx)
      deepStrictEqual(
        Buffer.from(cel.serializeSync(EVENT_RECORD, ctx)),
        RULE_FORMATS[format].frame(EVENT_RECORD, ids.cel),
        `${format}: serializeSync with the CEL condition writes the record's frame`,
      )
      throws(
        () => cel.serializeSync({ ...EVENT_RECORD, seq: 0 }, ctx),
        (error: Error & { code?: string }) =>
          error.name === 'RuleViolationError' && error.code === 'RULE_VIOLATION',
        `${format}: the CEL condition refuses seq 0`,
      )
      const jsonata = RULE_FORMATS[format].serializer(client, ruleArtifact(format, 'jsonata'))
      await jsonata.prepare(ctx)
      deepStrictEqual(
        Buffer.from(jsonata.serializeSync(EVENT_RECORD, ctx)),
        RULE_FORMATS[format].frame(MASKED_RECORD, ids.jsonata),
        `${format}: serializeSync with the JSONata transform writes the masked record's frame`,
      )
      for (const [rule, expected] of [
        ['cel', EVENT_RECORD],
        ['jsonata', MASKED_RECORD],
      ] as const) {
        const frame = RULE_FORMATS[format].frame(EVENT_RECORD, ids[rule])
        const withRules = RULE_FORMATS[format].deserializer(client)
        await withRules.prepare(ids[rule])
        deepStrictEqual(
          plain(withRules.deserializeSync(frame, ctx)),
          expected,
          `${format}: deserializeSync with the ${rule} rule`,
        )
      }
      done.push(
        `rules (${label}): the CEL condition passes the record byte for byte and refuses seq 0; ` +
          'the JSONata transform writes and reads the masked record',
      )
    }
  } finally {
    await client.close()
  }
  return done
}
