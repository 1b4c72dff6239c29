import { AvroDeserializer } from '@x/avro-serde'
import { RegistryClient } from '@x/registry-client'
import { RulesEngine, toRuleRecord } from '@x/rules'
import { MessageField, SerializationContext } from '@x/wire-format'
import type { CaseDef } from './cases.js'
import { EVENT_RECORD, eventType, GROUP_ID } from './fixtures.js'
import { expectedFrame } from './frames.js'

const ctx = new SerializationContext('bench-events', MessageField.VALUE)
const engine = new RulesEngine()
/** A one-clause CEL condition on `bench.Event` (Apicurio's dialect: the field is a variable). */
const CEL_CONDITION = engine.compile({
  domainRules: [
    { name: 'positive', kind: 'CONDITION', type: 'CEL', mode: 'READ', expr: 'seq > 0', onFailure: 'ERROR' },
  ],
})
/** A JSONata transform masking one field of `bench.Event`. */
const JSONATA_TRANSFORM = engine.compile({
  domainRules: [
    { name: 'mask', kind: 'TRANSFORM', type: 'JSONATA', mode: 'READ', expr: '$merge([$, {"note": "***"}])' },
  ],
})
const RULE_RECORD = toRuleRecord(EVENT_RECORD)

/**
 * The cost of data-contract rules per message, each divided by our Avro `deserializeSync` of the same record (the
 * ratio is the decode's share: 5.0 means the rule costs a fifth of a decode).
 */
export const RULES_CASES: readonly CaseDef[] = [
  {
    name: 'rules.cel-condition',
    group: 'rules',
    label: '`engine.execute(compiled, { mode, record })`, one CEL condition `seq > 0`',
    ceiling: 'ours.deserializeSync',
    usesRegistry: false,
    async prepare() {
      return {
        expect: 1,
        body: {
          kind: 'sync',
          body: () => engine.execute(CEL_CONDITION, { mode: 'READ', record: RULE_RECORD }).executedRules,
        },
      }
    },
  },
  {
    name: 'rules.jsonata-transform',
    group: 'rules',
    label:
      '`engine.execute(compiled, { mode, record })`, one JSONata transform `$merge([$, {"note": "***"}])`',
    ceiling: 'ours.deserializeSync',
    usesRegistry: false,
    async prepare() {
      const fields = Object.keys(RULE_RECORD).length
      return {
        expect: fields,
        body: {
          kind: 'sync',
          body: () =>
            Object.keys(
              engine.execute(JSONATA_TRANSFORM, { mode: 'READ', record: RULE_RECORD }).transformedRecord ??
                {},
            ).length,
        },
      }
    },
  },
  {
    name: 'rules.deserializeSync-cel',
    group: 'rules',
    label: '`deserializeSync` then `toRuleRecord` and the CEL condition (what a READ rule adds to a decode)',
    ceiling: 'ours.deserializeSync',
    usesRegistry: true,
    async prepare(env) {
      const client = new RegistryClient({ url: env.url, groupId: GROUP_ID })
      const deserializer = new AvroDeserializer<typeof EVENT_RECORD>(client)
      await deserializer.prepare(env.eventId)
      const framed = expectedFrame(eventType(), EVENT_RECORD, env.eventId)
      return {
        expect: EVENT_RECORD.seq,
        body: {
          kind: 'sync',
          body: () => {
            const value = deserializer.deserializeSync(framed, ctx)
            const result = engine.execute(CEL_CONDITION, { mode: 'READ', record: toRuleRecord(value) })
            return result.passed ? value.seq : -1
          },
        },
        close: () => client.close(),
      }
    },
  },
]
