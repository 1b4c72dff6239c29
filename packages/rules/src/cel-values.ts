/**
 * Conversions between the JSON-shaped record the registry receives and the values CEL evaluates. A JSON integer
 * (a `number` with no fraction below 1e21, or a `bigint`) is a CEL `int`, as the registry's JSON reader makes it;
 * any other `number` is a `double`.
 */
export function toCelValue(value: unknown): unknown {
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) && Math.abs(value) < 1e21 ? BigInt(value) : value
    case 'object': {
      if (value === null || value instanceof Uint8Array) return value
      if (Array.isArray(value)) return value.map(toCelValue)
      const converted: Record<string, unknown> = {}
      for (const key of Object.keys(value))
        converted[key] = toCelValue((value as Record<string, unknown>)[key])
      return converted
    }
    default:
      return value
  }
}

/** Converts a CEL result back to a JSON-shaped value: an `int` within 2^53 becomes a `number`. */
export function fromCelValue(value: unknown): unknown {
  switch (typeof value) {
    case 'bigint':
      return value >= Number.MIN_SAFE_INTEGER && value <= Number.MAX_SAFE_INTEGER ? Number(value) : value
    case 'object': {
      if (value === null || value instanceof Uint8Array) return value
      if (Array.isArray(value)) return value.map(fromCelValue)
      if (value instanceof Map) {
        const converted: Record<string, unknown> = {}
        for (const [key, item] of value) converted[String(key)] = fromCelValue(item)
        return converted
      }
      if (value instanceof Date) return value.toISOString()
      const converted: Record<string, unknown> = {}
      for (const key of Object.keys(value))
        converted[key] = fromCelValue((value as Record<string, unknown>)[key])
      return converted
    }
    default:
      return value
  }
}

/** Whether a transform's result replaces the record: a map (a plain object), not a list or a scalar. */
export function isRecordObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array)
  )
}
