import { contentHeaders } from './content.js'
import { type JsonText, toJsonText } from './json-text.js'
import type { RegistryProblem } from './problems.js'
import type { StoredContent } from './storage.js'

/** An HTTP answer before it is written: InMemoryRegistry's handlers return these. */
export interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** A JSON answer (`Content-Type: application/json`, as Apicurio writes it, without a charset). */
export function jsonAnswer(value: JsonText, status = 200): Answer {
  return { status, headers: { 'Content-Type': 'application/json' }, body: toJsonText(value) }
}

/** A `ProblemDetails` answer. */
export function problemAnswer(problem: RegistryProblem): Answer {
  return {
    status: problem.status,
    headers: { ...problem.headers, 'Content-Type': 'application/json' },
    body: problem.body(),
  }
}

/**
 * Stored content as Apicurio 3.3.3 answers it: the stored type as `Content-Type` (`application/json` for Avro,
 * on every content endpoint) and `Content-Disposition: attachment; filename="<fileName>.<ext>"`.
 */
export function contentAnswer(
  content: Pick<StoredContent, 'contentType'>,
  text: string,
  fileName: string,
): Answer {
  return { status: 200, headers: contentHeaders(content.contentType, fileName), body: text }
}

/** `204 No Content`. */
export function noContent(): Answer {
  return { status: 204, headers: {}, body: '' }
}

/** The headers Apicurio's HTTP layer adds to every answer (security and no-cache headers). */
export function commonHeaders(now: Date): Record<string, string> {
  return {
    'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
    'X-Content-Type-Options': 'nosniff',
    Expires: new Date(now.getTime() - 86_400_000).toUTCString(),
    Pragma: 'no-cache',
    'Cache-control': 'no-cache, no-store, must-revalidate',
  }
}
