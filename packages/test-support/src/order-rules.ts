import type { ContractRuleSet } from '@x/registry-client'
import { expect } from 'vitest'
import { expectRuleViolation } from './rule-violation.js'
import { celCondition, domainRules, jsonataTransform } from './rulesets.js'

/**
 * The rules each format's serdes are tried with on an order `{ id, total }`: `positive` (WRITE, `total > 0.0`,
 * ERROR) and `tag` (a READ transform prefixing `id` with `seen-`).
 */
export function orderRules(): ContractRuleSet {
  return domainRules(
    celCondition('positive', 'WRITE', 'total > 0.0', 'ERROR'),
    jsonataTransform('tag', 'READ', '$merge([$, {"id": "seen-" & id}])'),
  )
}

/** The serdes of one format, as {@link expectOrderRules} drives them. */
export interface OrderSerdes<C> {
  /** Writes with `orderRules` on. */
  serializer: { serialize(value: object, ctx: C): Promise<Uint8Array> }
  /** Reads without rules. */
  plain: { deserialize(bytes: Uint8Array, ctx: C): Promise<unknown> }
  /** Reads with `orderRules` on. */
  checked: {
    deserialize(bytes: Uint8Array, ctx: C): Promise<unknown>
    deserializeSync(bytes: Uint8Array, ctx: C): unknown
  }
}

/**
 * Expects a format's serdes to run {@link orderRules}: the serializer refuses an order of total -5.5
 * (`RuleViolationError`) and writes one of 12.5, read back as written without rules and with its id tagged
 * `seen-` with them, by `deserialize` and `deserializeSync` alike.
 */
export async function expectOrderRules<C>(serdes: OrderSerdes<C>, ctx: C): Promise<void> {
  await expectRuleViolation(serdes.serializer.serialize({ id: 'o-1', total: -5.5 }, ctx))
  const bytes = await serdes.serializer.serialize({ id: 'o-2', total: 12.5 }, ctx)
  expect({ ...((await serdes.plain.deserialize(bytes, ctx)) as object) }).toEqual({ id: 'o-2', total: 12.5 })
  expect(await serdes.checked.deserialize(bytes, ctx)).toEqual({ id: 'seen-o-2', total: 12.5 })
  expect(serdes.checked.deserializeSync(bytes, ctx)).toEqual({ id: 'seen-o-2', total: 12.5 })
}
