/**
 * A JSON value as InMemoryRegistry writes it: like JSON, plus `bigint` (written as exact integer text, so that ids
 * beyond 2^53 reach the client unrounded) and `undefined` object members (left out, as Jackson leaves out nulls).
 */
export type JsonText =
  | string
  | number
  | bigint
  | boolean
  | null
  | readonly JsonText[]
  | { readonly [key: string]: JsonText | undefined }

/** The brand of `RuleDouble` of `@x/rules` (an integral double of a rule record), a registered symbol. */
const RULE_DOUBLE = Symbol.for('@x/rules.RuleDouble')

/**
 * Writes `value` as compact JSON, keeping the insertion order of object members (the order Apicurio's Jackson
 * beans use), writing each `bigint` as its exact decimal digits and a `RuleDouble` of `@x/rules` (in a transformed
 * record) with a fraction (`5.0`), as Jackson writes a `Double`.
 */
export function toJsonText(value: JsonText): string {
  if (value === null) return 'null'
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value)
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null'
    case 'bigint':
      return value.toString()
    case 'boolean':
      return value ? 'true' : 'false'
    default:
      break
  }
  if (Array.isArray(value)) return `[${value.map((item: JsonText) => toJsonText(item)).join(',')}]`
  if ((value as { [RULE_DOUBLE]?: unknown })[RULE_DOUBLE] === true)
    return doubleText((value as { value: number }).value)
  const members: string[] = []
  for (const [key, member] of Object.entries(value as { readonly [key: string]: JsonText | undefined })) {
    if (member !== undefined) members.push(`${JSON.stringify(key)}:${toJsonText(member)}`)
  }
  return `{${members.join(',')}}`
}

/** A double's JSON text with a fraction or an exponent (`5.0`, `-0.0`, `1e+21`), as Jackson writes a `Double`. */
function doubleText(value: number): string {
  if (!Number.isFinite(value)) return 'null'
  if (Object.is(value, -0)) return '-0.0'
  const text = String(value)
  return /[.e]/.test(text) ? text : `${text}.0`
}
