/**
 * How deeply a JSON Schema may nest subschemas in one another (`properties`, `items`, `allOf`, …): a deeper schema is
 * refused before it is compiled, rather than let exhaust the stack.
 */
export const MAX_SCHEMA_DEPTH = 128

/** The keywords whose value is an object of named subschemas: the object itself is not a level. */
const SCHEMA_MAPS = new Set([
  'properties',
  'patternProperties',
  'definitions',
  '$defs',
  'dependencies',
  'dependentSchemas',
])

/**
 * Whether a schema (parsed JSON) nests deeper than {@link MAX_SCHEMA_DEPTH} levels. Every object and array on the way
 * down counts as a level, except the objects of named subschemas (`properties`, `definitions`, …), so a property's
 * schema is one level below its object schema. Iterative: it cannot itself exhaust the stack, and it stops at the
 * first level too deep.
 */
export function nestsTooDeep(schema: unknown): boolean {
  const pending: [value: unknown, depth: number][] = [[schema, 0]]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, depth] = next
    if (typeof value !== 'object' || value === null) continue
    if (depth >= MAX_SCHEMA_DEPTH) return true
    if (Array.isArray(value)) {
      for (const item of value) pending.push([item, depth + 1])
      continue
    }
    for (const [key, member] of Object.entries(value)) {
      if (SCHEMA_MAPS.has(key) && typeof member === 'object' && member !== null && !Array.isArray(member)) {
        for (const sub of Object.values(member)) pending.push([sub, depth + 1])
      } else {
        pending.push([member, depth + 1])
      }
    }
  }
  return false
}
