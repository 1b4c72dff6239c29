/**
 * `$ref` resolution as Apicurio prepares it for everit: a reference is resolved against the base URI in scope; one
 * that only names a fragment (`#/definitions/a`) stays inside its document, any other must be one of the references
 * the artifact declares, by name.
 */

/** `ref` resolved against `base` (`undefined`: no base URI, the reference is kept as written). */
export function resolveUri(base: string | undefined, ref: string): string {
  if (base === undefined || base === '') return ref
  try {
    return new URL(ref, base).href
  } catch {
    const slash = base.lastIndexOf('/')
    if (ref.startsWith('#')) return `${withoutFragment(base)}${ref}`
    return slash === -1 ? ref : `${base.slice(0, slash + 1)}${ref}`
  }
}

/** The URI without its fragment. */
export function withoutFragment(uri: string): string {
  const hash = uri.indexOf('#')
  return hash === -1 ? uri : uri.slice(0, hash)
}

/** The fragment of `uri` with its `#`, or `''`. */
export function fragmentOf(uri: string): string {
  const hash = uri.indexOf('#')
  return hash === -1 ? '' : uri.slice(hash)
}

/** Whether the reference stays in the document whose base URI is `id`. */
export function isInternalFragment(reference: string, id: string | undefined): boolean {
  const base = withoutFragment(reference)
  if (id === undefined) return base === ''
  return base === withoutFragment(id)
}

/**
 * Every `$ref` of a document, resolved against the `$id` in scope where it is written (Apicurio reads `$id`, the
 * draft 7 keyword, whatever the draft).
 */
export function referencesOf(node: unknown, id: string | undefined, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) referencesOf(item, id, found)
  } else if (node !== null && typeof node === 'object') {
    const object = node as Record<string, unknown>
    const scope = typeof object.$id === 'string' ? resolveUri(undefined, object.$id) : id
    for (const [key, value] of Object.entries(object)) {
      if (key === '$ref') {
        if (typeof value === 'string') found.add(resolveUri(scope, value))
      } else {
        referencesOf(value, scope, found)
      }
    }
  }
  return found
}

/** A JSON pointer step that names nothing: the step and the pointer of the value it was looked up in. */
export class PointerError extends Error {
  override readonly name = 'PointerError'
  readonly step: string
  readonly parent: string
  constructor(fragment: string, step: string, parent: string) {
    super(`the JSON pointer ${JSON.stringify(fragment)} names nothing in its document`)
    this.step = step
    this.parent = parent
  }
}

/**
 * The value a JSON pointer fragment (`#/definitions/a`) names in `document`, or a {@link PointerError}, read as everit
 * reads it: the fragment is split at each `/`, the first piece (the `#` and anything before the first `/`) is dropped
 * and so are empty pieces at the end, so `#`, `#/` and a plain name such as `#Address` (when no subschema has it as
 * its id) all name the whole document.
 */
export function evaluatePointer(document: unknown, fragment: string): { value: unknown; pointer: string } {
  const pieces = fragment.split('/')
  while (pieces.length > 1 && pieces.at(-1) === '') pieces.pop()
  let value: unknown = document
  let parent = ''
  for (const raw of pieces.slice(1)) {
    const step = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~')
    if (Array.isArray(value) && /^\d+$/.test(step)) value = value[Number(step)]
    else if (value !== null && typeof value === 'object' && Object.hasOwn(value, step)) {
      value = (value as Record<string, unknown>)[step]
    } else {
      throw new PointerError(fragment, step, parent)
    }
    parent += `/${raw}`
  }
  return { value, pointer: parent }
}
