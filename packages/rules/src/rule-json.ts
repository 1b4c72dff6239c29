import { MAX_RECORD_DEPTH, RecordTooDeepError, setData } from './record-data.js'
import { ruleDouble } from './rule-double.js'

/**
 * A JSON value with each number kept as its source text and each object a `Map` in source order: what
 * `parseJsonTree` of `@x/registry-client/json` returns (its `JsonNumberText` holds `text`).
 */
export type JsonTextTree =
  | null
  | boolean
  | string
  | { readonly text: string }
  | JsonTextTree[]
  | Map<string, JsonTextTree>

const INTEGER = /^-?(?:0|[1-9][0-9]*)$/

/**
 * A JSON record as the registry's execute endpoint reads it (Jackson's `Map`), for the rules: an integer literal
 * (`5`, `9007199254740993`) is an `int` (a `number` within ±(2^53 − 1), a `bigint` beyond), and a literal with a
 * fraction or an exponent (`5.0`, `1e3`, `2.5`) a double (a {@link RuleDouble} when its value is integral). Give it
 * the tree `parseJsonTree` of `@x/registry-client/json` makes of the text, which keeps each number's text.
 * `x-serde rules test` and `InMemoryRegistry`'s execute and migrate endpoints read records with it.
 * @throws RecordTooDeepError past {@link MAX_RECORD_DEPTH} levels.
 */
export function ruleRecordOfJson(tree: JsonTextTree): unknown {
  return fromTree(tree, 0)
}

function fromTree(tree: JsonTextTree, depth: number): unknown {
  if (tree === null || typeof tree !== 'object') return tree
  if (tree instanceof Map) {
    if (++depth > MAX_RECORD_DEPTH) throw new RecordTooDeepError()
    const object: Record<string, unknown> = {}
    for (const [key, item] of tree) setData(object, key, fromTree(item, depth))
    return object
  }
  if (Array.isArray(tree)) {
    if (++depth > MAX_RECORD_DEPTH) throw new RecordTooDeepError()
    return tree.map((item) => fromTree(item, depth))
  }
  const text = tree.text
  if (INTEGER.test(text)) {
    const exact = BigInt(text)
    return exact >= Number.MIN_SAFE_INTEGER && exact <= Number.MAX_SAFE_INTEGER ? Number(exact) : exact
  }
  return ruleDouble(Number(text))
}
