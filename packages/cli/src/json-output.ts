import { randomBytes } from 'node:crypto'

/**
 * A decoded value as JSON text: bigints as their exact digits (never rounded through a double), bytes as base64,
 * dates as ISO text, `Map`s as objects. `indent` 2 for people, 0 for machines.
 */
export function toJsonText(value: unknown, indent = 2): string {
  // Bigints travel as marked strings, then the quotes around them go: a nonce keeps user text from looking like one.
  const nonce = randomBytes(6).toString('hex')
  const marked = new RegExp(`"@bigint-${nonce}:(-?\\d+)"`, 'g')
  const text = JSON.stringify(
    value,
    function replacer(this: unknown, key: string, item: unknown) {
      const raw = (this as Record<string, unknown>)[key]
      if (typeof raw === 'bigint') return `@bigint-${nonce}:${raw.toString()}`
      if (raw instanceof Uint8Array)
        return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64')
      if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? null : raw.toISOString()
      if (raw instanceof Map) return Object.fromEntries(raw)
      return item
    },
    indent,
  )
  return text.replace(marked, (_, digits: string) => digits)
}
