/**
 * The path syntax of data errors: record fields are joined with dots (`user.address.city`), array items are `[2]`,
 * map entries and the branch key of a wrapped union are `["key"]` (JSON-quoted): `orders[0].lines["sku-1"].qty`.
 * The value itself is the empty path `''`.
 */

/** One step of a path: a record field name, an array index, or a map / wrapped-union key. */
export type Segment = string | number | { readonly key: string }

/** The text of a path. */
export function formatPath(segments: readonly Segment[]): string {
  let out = ''
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`
    else if (typeof segment === 'string') out += out === '' ? segment : `.${segment}`
    else out += `[${JSON.stringify(segment.key)}]`
  }
  return out
}
