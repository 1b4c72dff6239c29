/**
 * How deeply an Avro schema may nest types in one another (records in records, items in arrays, values in maps,
 * branches in unions): a deeper schema is refused before it is parsed, rather than let exhaust the stack.
 */
export const MAX_SCHEMA_DEPTH = 128

/**
 * Whether a schema (parsed JSON) nests deeper than {@link MAX_SCHEMA_DEPTH} levels. Every object and array on the way
 * down counts as a level, except a record's `fields` array and its field objects (a field's type is one level below
 * its record). Iterative: it cannot itself exhaust the stack, and it stops at the first level too deep.
 */
export function nestsTooDeep(json: unknown): boolean {
  const pending: [value: unknown, depth: number][] = [[json, 0]]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, depth] = next
    if (typeof value !== 'object' || value === null) continue
    if (depth >= MAX_SCHEMA_DEPTH) return true
    if (Array.isArray(value)) {
      for (const item of value) pending.push([item, depth + 1])
      continue
    }
    for (const [key, member] of Object.entries(value)) {
      if (key === 'fields' && Array.isArray(member)) {
        for (const field of member) {
          if (typeof field !== 'object' || field === null || Array.isArray(field))
            pending.push([field, depth + 1])
          else for (const part of Object.values(field)) pending.push([part, depth + 1])
        }
      } else {
        pending.push([member, depth + 1])
      }
    }
  }
  return false
}
