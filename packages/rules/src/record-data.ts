/**
 * How deep the objects and lists of a record may nest for rules: a record nested deeper (its top-level object is
 * depth 1) is refused with {@link RecordTooDeepError} by every walk over it (`toRuleRecord`, the conversions into
 * and out of CEL and JSONata), so a hostile message fails its rules as data instead of overflowing the stack. Real
 * records nest a few dozen levels; a walk this deep uses a small part of Node's default stack, even started deep
 * inside a consumer's own calls.
 */
export const MAX_RECORD_DEPTH = 1000

/**
 * A record (or a rule's result) nested deeper than {@link MAX_RECORD_DEPTH} levels: a `RangeError` carrying the
 * library's code for bad data, `INVALID_DATA`. `RulesEngine#execute` and `migrate` turn it into the failure of the
 * rule that met it; `toRuleRecord` throws it.
 */
export class RecordTooDeepError extends RangeError {
  /** Always `RecordTooDeepError`. */
  override name = 'RecordTooDeepError'
  /** Always `INVALID_DATA`: the record is data the rules cannot read. */
  readonly code = 'INVALID_DATA'
  /** The deepest nesting allowed: {@link MAX_RECORD_DEPTH}. */
  readonly maxDepth = MAX_RECORD_DEPTH

  constructor() {
    super(
      `The record nests objects and lists deeper than ${MAX_RECORD_DEPTH} levels, more than data-contract rules read`,
    )
  }
}

/**
 * Sets `key` of `object` as an own data property, as `JSON.parse` makes it: a key named `__proto__` is a field
 * like any other, never the object's prototype. Every other name is a plain assignment (the fast path).
 */
export function setData(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true })
  } else {
    object[key] = value
  }
}

/**
 * The constructor of objects that inherit nothing: reading a name they do not hold (`constructor`, `toString`,
 * `__proto__`) gives `undefined`, and assigning any name makes an own property. Unlike `Object.create(null)`, its
 * objects are created fast.
 */
export const DataObject = function DataObject() {} as unknown as new () => Record<string, unknown>
DataObject.prototype = Object.freeze(Object.create(null))
