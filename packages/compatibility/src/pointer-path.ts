import { fieldPath, indexPath } from '@x/errors'

/**
 * A JSON pointer (`/fields/1/type`, as Apicurio writes a cause's `context`) in the data-error path notation of
 * `@x/errors` (`fields[1].type`): numeric steps become indexes, the others property names. A leading `#` is
 * dropped; the empty pointer and `/` are the schema itself, `''`.
 */
export function pointerToPath(pointer: string): string {
  const body = pointer.startsWith('#') ? pointer.slice(1) : pointer
  if (body === '' || body === '/') return ''
  let path = ''
  for (const raw of body.slice(1).split('/')) {
    const step = raw.replaceAll('~1', '/').replaceAll('~0', '~')
    path = /^(0|[1-9][0-9]*)$/.test(step) ? indexPath(path, Number(step)) : fieldPath(path, step)
  }
  return path
}
