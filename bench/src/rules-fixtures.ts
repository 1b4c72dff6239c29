import type { ContractRule, RegistryClient } from '@x/registry-client'
import { EVENT_RECORD, EVENT_SCHEMA } from './fixtures.js'
import { EVENT_JSON_SCHEMA, EVENT_PROTO } from './peer-fixtures.js'

/**
 * The data-contract rows' artifacts: `bench.Event` once more in each format under an artifact of its own whose
 * artifact-level ruleset holds one rule, so the serdes fetch and compile it as they would any ruleset. A rule is
 * `WRITEREAD`, so one artifact serves the serializer and the deserializer rows.
 */

export type RuleFormat = 'avro' | 'json' | 'proto'
export type RuleKindName = 'cel' | 'jsonata'

/** A one-clause CEL condition (Apicurio's dialect: the field is a variable). */
export const CEL_RULE: ContractRule = {
  name: 'positive',
  kind: 'CONDITION',
  type: 'CEL',
  mode: 'WRITEREAD',
  expr: 'seq > 0',
  onFailure: 'ERROR',
}

/** A JSONata transform masking one field. */
export const JSONATA_RULE: ContractRule = {
  name: 'mask',
  kind: 'TRANSFORM',
  type: 'JSONATA',
  mode: 'WRITEREAD',
  expr: '$merge([$, {"note": "***"}])',
}

/** The bench record as the JSONata transform leaves it. */
export const MASKED_RECORD = { ...EVENT_RECORD, note: '***' }

const SCHEMAS: Record<RuleFormat, { text: string; artifactType: 'AVRO' | 'JSON' | 'PROTOBUF' }> = {
  avro: { text: JSON.stringify(EVENT_SCHEMA), artifactType: 'AVRO' },
  json: { text: JSON.stringify(EVENT_JSON_SCHEMA), artifactType: 'JSON' },
  proto: { text: EVENT_PROTO, artifactType: 'PROTOBUF' },
}

/** The artifact of a format's rule row. */
export function ruleArtifact(format: RuleFormat, rule: RuleKindName): string {
  return `bench.Event.${format}.rules-${rule}`
}

/** The globalIds of the rule rows' artifacts, by format and rule. */
export type RuleIds = Record<RuleFormat, Record<RuleKindName, number>>

/** Registers the six artifacts and sets each one's ruleset; returns their globalIds. */
export async function registerRuleArtifacts(client: RegistryClient): Promise<RuleIds> {
  const ids = {} as RuleIds
  for (const format of ['avro', 'json', 'proto'] as const) {
    const schema = SCHEMAS[format]
    ids[format] = {} as Record<RuleKindName, number>
    for (const [name, rule] of [
      ['cel', CEL_RULE],
      ['jsonata', JSONATA_RULE],
    ] as const) {
      const artifactId = ruleArtifact(format, name)
      const registered = await client.registerSchema(artifactId, schema.text, {
        artifactType: schema.artifactType,
      })
      await client.setArtifactRuleset(artifactId, { domainRules: [rule], migrationRules: [] })
      if (typeof registered.globalId !== 'number')
        throw new TypeError('the registry gave no numeric globalId')
      ids[format][name] = registered.globalId
    }
  }
  return ids
}
