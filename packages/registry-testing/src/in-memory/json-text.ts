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

/**
 * Writes `value` as compact JSON, keeping the insertion order of object members (the order Apicurio's Jackson
 * beans use) and writing each `bigint` as its exact decimal digits.
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
  const members: string[] = []
  for (const [key, member] of Object.entries(value as { readonly [key: string]: JsonText | undefined })) {
    if (member !== undefined) members.push(`${JSON.stringify(key)}:${toJsonText(member)}`)
  }
  return `{${members.join(',')}}`
}
