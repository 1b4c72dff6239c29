/**
 * @internal A short description of what a caller passed, for error messages: the type (or class) and, for
 * primitives, a truncated value. Never more than about 50 characters, so a large input does not flood a log.
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null'
  switch (typeof value) {
    case 'undefined':
      return 'undefined'
    case 'string':
      return `string ${JSON.stringify(value.length > 32 ? `${value.slice(0, 32)}…` : value)}`
    case 'number':
    case 'boolean':
      return `${typeof value} ${String(value)}`
    case 'bigint':
      return `bigint ${truncate(value.toString())}n`
    case 'object': {
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name
      return typeof name === 'string' && name !== '' ? name : 'object'
    }
    default:
      return typeof value
  }
}

/** @internal Cuts a long text (e.g. a huge digit string) to 40 characters for a message. */
export function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}
