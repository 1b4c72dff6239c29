import type { ContractRule, ContractRuleSet } from '@x/registry-client'
import type { DifferentialFormat } from './cases.js'
import { type AvroSchema, avroJavaRecord, jsonJavaRecord } from './java-record.js'

/**
 * The migrations of the serde-level differential: an artifact of three versions per format (Avro and JSON Schema),
 * each version adding a field, with `UPGRADE` and `DOWNGRADE` JSONata transforms and an `UPGRADE` condition. A value
 * written with one version is read with `rules.migration.targetVersion` another; the registry's `contract/migrate`
 * is asked to migrate the record Java's serde sends for it.
 */

/** One migration case. */
export interface MigrationCase {
  id: string
  format: 'avro' | 'json'
  /** The artifact's topic (TopicIdStrategy: `<topic>-value`). */
  topic: string
  fromVersion: string
  toVersion: string
  /** The value, of the `fromVersion` schema. */
  value: Record<string, unknown>
  /** The record Java's serde sends for it, as JSON text. */
  recordJson: string
}

/** One version of a migration artifact. */
export interface MigrationVersion {
  version: string
  schema: string
  ruleSet: ContractRuleSet
}

const migration = (name: string, mode: string, expr: string): ContractRule => ({
  name,
  kind: 'TRANSFORM',
  type: 'JSONATA',
  mode: mode as ContractRule['mode'],
  expr,
})
const drop = (field: string) => `$sift($, function($v, $k) {$k != "${field}"})`
const RULES: ContractRuleSet[] = [
  { domainRules: [], migrationRules: [] },
  {
    domainRules: [],
    migrationRules: [
      migration('add-currency', 'UPGRADE', '$merge([$, {"currency": "NOK"}])'),
      migration('drop-currency', 'DOWNGRADE', drop('currency')),
    ],
  },
  {
    domainRules: [],
    migrationRules: [
      migration('add-tier', 'UPGRADE', '$merge([$, {"tier": amount > 100 ? "gold" : "std"}])'),
      {
        name: 'not-negative',
        kind: 'CONDITION',
        type: 'CEL',
        mode: 'UPGRADE',
        expr: 'amount >= 0.0',
        onFailure: 'ERROR',
      },
      migration('drop-tier', 'DOWNGRADE', drop('tier')),
    ],
  },
]

const AVRO_FIELDS = [
  { name: 'id', type: 'long' },
  { name: 'name', type: 'string' },
  { name: 'amount', type: 'double' },
  { name: 'currency', type: 'string', default: 'EUR' },
  { name: 'tier', type: 'string', default: 'std' },
]
const avroVersion = (count: number): AvroSchema => ({
  type: 'record',
  name: 'Ledger',
  namespace: 'shop',
  fields: AVRO_FIELDS.slice(0, count),
})
const JSON_PROPERTIES: [string, object][] = [
  ['id', { type: 'integer' }],
  ['name', { type: 'string' }],
  ['amount', { type: 'number' }],
  ['currency', { type: 'string' }],
  ['tier', { type: 'string' }],
]
const jsonVersion = (count: number) => ({
  type: 'object',
  properties: Object.fromEntries(JSON_PROPERTIES.slice(0, count)),
  required: ['id', 'name', 'amount'],
})

/** The three versions of a format's migration artifact, oldest first. */
export function migrationVersions(format: DifferentialFormat): MigrationVersion[] {
  return RULES.map((ruleSet, index) => ({
    version: String(index + 1),
    schema: JSON.stringify(format === 'avro' ? avroVersion(index + 3) : jsonVersion(index + 3)),
    ruleSet,
  }))
}

/** The record Java's serde sends for a value of a version of a format's migration artifact. */
export function migrationJavaRecord(format: DifferentialFormat, version: string, value: unknown): string {
  return format === 'avro' ? avroJavaRecord(avroVersion(Number(version) + 2), value) : jsonJavaRecord(value)
}

const BASE: Record<string, unknown>[] = [
  { id: 2n ** 60n + 1n, name: 'big ledger', amount: 250 },
  { id: -1, name: '', amount: -0.5 },
  { id: 7, name: 'Ünï', amount: 99.99 },
]
const HOPS: [string, string][] = [
  ['1', '3'],
  ['1', '2'],
  ['2', '3'],
  ['3', '1'],
  ['3', '2'],
]

/** Every migration case: each value of each hop, for Avro and JSON Schema. */
export function migrationCases(): MigrationCase[] {
  return (['avro', 'json'] as const).flatMap((format) =>
    HOPS.flatMap(([fromVersion, toVersion]) =>
      BASE.map((base, index) => {
        const value: Record<string, unknown> = { ...base }
        if (Number(fromVersion) >= 2) value.currency = 'SEK'
        if (Number(fromVersion) >= 3) value.tier = 'silver'
        return {
          id: `${format}-m-${fromVersion}-${toVersion}-${index}`,
          format,
          topic: `${format}-m`,
          fromVersion,
          toVersion,
          value,
          recordJson: migrationJavaRecord(format, fromVersion, value),
        }
      }),
    ),
  )
}
