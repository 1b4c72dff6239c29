import type { IncomingHttpHeaders } from 'node:http'

/** One request InMemoryRegistry received, as {@link InMemoryRegistry.requests} lists it. */
export interface RecordedRequest {
  /** The HTTP method, upper-case (`GET`, `POST`, ...). */
  readonly method: string
  /** The raw path as sent (percent-encoded, with the `/apis/registry/v3` prefix), without the query. */
  readonly path: string
  /** The query parameters, decoded; a repeated parameter keeps its last value. */
  readonly query: Readonly<Record<string, string>>
  /** The request headers, names in lower case; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>
  /** The request body as UTF-8 text; `''` when there is none. */
  readonly body: string
}

/** Makes the frozen log entry of a request. */
export function recordRequest(
  method: string,
  rawPath: string,
  query: URLSearchParams,
  headers: IncomingHttpHeaders,
  body: string,
): RecordedRequest {
  const flatHeaders: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flatHeaders[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return Object.freeze({
    method,
    path: rawPath,
    query: Object.freeze(Object.fromEntries(query)),
    headers: Object.freeze(flatHeaders),
    body,
  })
}
