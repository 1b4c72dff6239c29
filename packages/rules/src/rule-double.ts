/**
 * The brand of a {@link RuleDouble}, a registered symbol: packages that do not depend on `@x/rules` (the registry
 * client's JSON writer) recognise a double by it without importing the class.
 */
export const RULE_DOUBLE = Symbol.for('@x/rules.RuleDouble')

/**
 * A double whose value is integral (`5.0`), as a rule record holds it. JSON text and JavaScript numbers do not tell
 * `5.0` from `5`, but the registry and Apicurio's Java serde do: Jackson reads `5.0` as a `Double`, which CEL types
 * `double` (`type(total) == double`, `total / 2 == 2.5`), and `5` as an `int`. So a rule record holds a plain
 * `number` for every double with a fraction and for every integer (an `int`), and a `RuleDouble` for an integral
 * double: the record maps of the serdes make one for an Avro `double` or `float` and a Protobuf `double` or `float`
 * whose value is integral, and {@link ruleRecordOfJson} for a JSON literal such as `5.0` or `1e3`. CEL binds it as a
 * `double`, JSONata reads it as its number, the registry client writes it as `5.0`, and `JSON.stringify` as `5`.
 */
export class RuleDouble {
  /** The double's value (an integral number, or any number when made by hand). */
  readonly value: number

  /** @param value - The double's value. */
  constructor(value: number) {
    this.value = value
  }

  /** Always `true`: the brand the registry client's JSON writer reads. */
  get [RULE_DOUBLE](): true {
    return true
  }

  /** The value: arithmetic and comparisons in JavaScript see the number. */
  valueOf(): number {
    return this.value
  }

  /** The value, so that `JSON.stringify` writes the number. */
  toJSON(): number {
    return this.value
  }
}

/** Whether `value` is a {@link RuleDouble} (by its brand: any copy of this package made it). */
export function isRuleDouble(value: unknown): value is RuleDouble {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [RULE_DOUBLE]?: unknown })[RULE_DOUBLE] === true
  )
}

/** A double as a rule record holds it: a {@link RuleDouble} when integral, else the number itself. */
export function ruleDouble(value: number): number | RuleDouble {
  return Number.isInteger(value) ? new RuleDouble(value) : value
}

/** `value` with each {@link RuleDouble} in it (at any depth) replaced by its number; the rest as it is. */
export function plainRuleValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (isRuleDouble(value)) return value.value
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    for (let index = 0; index < value.length; index++) {
      const item = value[index]
      const plain = plainRuleValue(item)
      if (plain === item) continue
      copy ??= value.slice()
      copy[index] = plain
    }
    return copy ?? value
  }
  if (value instanceof Uint8Array || value instanceof Date) return value
  let copy: Record<string, unknown> | undefined
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key]
    const plain = plainRuleValue(item)
    if (plain !== item) {
      copy ??= { ...(value as Record<string, unknown>) }
      if (key === '__proto__')
        Object.defineProperty(copy, key, {
          value: plain,
          writable: true,
          enumerable: true,
          configurable: true,
        })
      else copy[key] = plain
    }
  }
  return copy ?? value
}
