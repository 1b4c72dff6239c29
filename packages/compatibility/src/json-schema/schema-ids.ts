/**
 * The subschemas of a document by their id, as everit (1.14) finds a `$ref` target before reading the reference as a
 * JSON pointer: every object of the document whose id keyword (`$id`, `id` in draft 4) holds a string is listed under
 * that string exactly as written, wherever it is; a later one with the same id replaces an earlier one. So
 * `"$ref": "#Address"` names the object with `"$id": "#Address"`.
 */

/** A subschema found by its id: its value and its JSON pointer in the document. */
export interface IdentifiedSchema {
  readonly value: Record<string, unknown>
  readonly pointer: string
}

const BY_DOCUMENT = new WeakMap<object, Map<string, Map<string, IdentifiedSchema>>>()

/** The subschema of `document` whose id keyword `idKey` is `id` as written, or `undefined`. */
export function schemaWithId(document: unknown, idKey: string, id: string): IdentifiedSchema | undefined {
  if (document === null || typeof document !== 'object') return undefined
  let byKey = BY_DOCUMENT.get(document)
  if (byKey === undefined) {
    byKey = new Map()
    BY_DOCUMENT.set(document, byKey)
  }
  let ids = byKey.get(idKey)
  if (ids === undefined) {
    ids = new Map()
    collect(document, '', idKey, ids)
    byKey.set(idKey, ids)
  }
  return ids.get(id)
}

function collect(value: unknown, pointer: string, idKey: string, ids: Map<string, IdentifiedSchema>): void {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) collect(item, `${pointer}/${index}`, idKey, ids)
    return
  }
  if (value === null || typeof value !== 'object') return
  const object = value as Record<string, unknown>
  const id = Object.hasOwn(object, idKey) ? object[idKey] : undefined
  if (typeof id === 'string') ids.set(id, { value: object, pointer })
  for (const [key, item] of Object.entries(object)) {
    const step =
      key.includes('~') || key.includes('/') ? key.replaceAll('~', '~0').replaceAll('/', '~1') : key
    collect(item, `${pointer}/${step}`, idKey, ids)
  }
}
