/** What replaces a secret in text the library quotes. */
export const REDACTED = '[REDACTED]'

/**
 * `text` with every occurrence of each of `secrets` replaced by `[REDACTED]`, longest secrets first (so a password
 * inside a `user:password` pair goes with the pair). For text from elsewhere that the library quotes in a message,
 * such as a registry or proxy error body that echoed the `Authorization` header it was sent. Empty secrets are
 * ignored.
 */
export function redactSecrets(text: string, secrets: Iterable<string | undefined>): string {
  const ordered = [...secrets].filter((s): s is string => typeof s === 'string' && s !== '')
  if (ordered.length === 0) return text
  ordered.sort((a, b) => b.length - a.length)
  let out = text
  for (const secret of ordered) if (out.includes(secret)) out = out.split(secret).join(REDACTED)
  return out
}
