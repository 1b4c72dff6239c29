/**
 * The URL as it may appear in a message or a log: without user name, password, query or fragment (any of which may
 * hold a credential). Input that is not a URL is returned as `<invalid URL>` rather than echoed.
 */
export function redactUrl(url: string | URL): string {
  try {
    const parsed = new URL(String(url))
    parsed.username = ''
    parsed.password = ''
    parsed.search = ''
    parsed.hash = ''
    return parsed.toString()
  } catch {
    return '<invalid URL>'
  }
}
