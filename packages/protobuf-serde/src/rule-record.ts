import { isObject, MAX_DEPTH, type RuleField, setOwn, shapeOf, tooDeep } from './rule-shape.js'
import { doubleJson, wellKnownJson } from './rule-well-known.js'
import type { FieldPlan, MessagePlan } from './values.js'

/**
 * A message value as the record the registry is sent for it, proto3's canonical JSON mapping (as Java's
 * `JsonFormat` prints it, Java's serde having no record of its own for Protobuf): fields by their JSON names
 * (`userId` for `user_id`), default values of fields without presence left out (and empty lists and maps), a
 * `double` or `float` as a double (`double(5)` for an integral one, so that CEL types it `double` as it types the
 * `5.0` Java writes; `"NaN"`, `"Infinity"`, `"-Infinity"` as text), an enum by its name, a well-known type in its
 * JSON form (`wellKnownJson`: a `Timestamp` as `"2025-01-01T00:00:00Z"`, a `Duration` as `"1.5s"`, …). Unlike
 * proto3 JSON, 64-bit integers stay numbers (`bigint`s beyond 2^53), so that `count > 0` reads them; bytes stay
 * bytes (the caller's JSON makes them base64). A field is taken by its `.proto` name, else its JSON name; fields
 * the schema does not declare are kept as they are. With `fields` (JSON names), only those top-level fields are
 * converted. Only own fields are read; a field named `__proto__` stays an own data field.
 * @throws RangeError when messages, lists or `Struct`s nest deeper than the rules read, and (code `INVALID_DATA`) for
 *   a well-known value proto3 JSON cannot write (a `Timestamp` outside years 1 to 9999, …; see `wellKnownJson`).
 */
export function toRuleMessage(
  plan: MessagePlan,
  value: unknown,
  double: (value: number) => unknown,
  fields?: readonly string[],
): unknown {
  return messageJson(plan, value, double, fields, 0)
}

function messageJson(
  plan: MessagePlan,
  value: unknown,
  double: (value: number) => unknown,
  only: readonly string[] | undefined,
  depth: number,
): unknown {
  if (!isObject(value)) return value
  if (++depth > MAX_DEPTH) throw tooDeep()
  const shape = shapeOf(plan)
  const out: Record<string, unknown> = {}
  for (const rule of shape.fields) {
    if (only !== undefined && !only.includes(rule.json)) continue
    const { field } = rule
    const item = Object.hasOwn(value, field.name)
      ? value[field.name]
      : Object.hasOwn(value, rule.json)
        ? value[rule.json]
        : undefined
    if (item === undefined || item === null) continue
    let converted: unknown
    if (field.map) {
      const entries = item instanceof Map ? [...item] : isObject(item) ? Object.entries(item) : undefined
      if (entries === undefined) converted = item
      else if (entries.length === 0) continue
      else {
        const map: Record<string, unknown> = {}
        for (const [key, one] of entries) setOwn(map, String(key), singleJson(rule, one, double, depth))
        converted = map
      }
    } else if (field.repeated && Array.isArray(item)) {
      if (item.length === 0) continue
      converted = item.map((one) => singleJson(rule, one, double, depth))
    } else {
      if (!rule.presence && isDefault(field, item)) continue
      converted = singleJson(rule, item, double, depth)
    }
    setOwn(out, rule.json, converted)
  }
  for (const key of Object.keys(value)) {
    if (shape.names.has(key) || (only !== undefined && !only.includes(key))) continue
    setOwn(out, key, value[key])
  }
  return out
}

/** A default value, which proto3 JSON leaves out of a field without presence. */
function isDefault(field: FieldPlan, value: unknown): boolean {
  if (value === 0 || value === 0n || value === '' || value === false) return true
  if (value instanceof Uint8Array) return value.length === 0
  return field.enumType !== undefined && value === field.enumType.valuesById[0]
}

function singleJson(
  rule: RuleField,
  value: unknown,
  double: (value: number) => unknown,
  depth: number,
): unknown {
  const { field } = rule
  if (field.message !== undefined) {
    if (rule.wellKnown !== undefined) {
      return isObject(value) ? wellKnownJson(rule.wellKnown, value, double, depth) : value
    }
    return messageJson(field.message, value, double, undefined, depth)
  }
  if (field.enumType !== undefined) {
    return typeof value === 'number' ? (field.enumType.valuesById[value] ?? value) : value
  }
  return field.scalar === 'float' ? doubleJson(value, double) : value
}
