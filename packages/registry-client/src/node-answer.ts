import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'
import type { Transform } from 'node:stream'

/** `Headers.get` over Node's parsed headers: names in any case, repeated fields joined with `, `. */
class NodeAnswerHeaders {
  readonly #headers: IncomingHttpHeaders

  constructor(headers: IncomingHttpHeaders) {
    this.#headers = headers
  }

  get(name: string): string | null {
    const value = this.#headers[name.toLowerCase()]
    if (value === undefined) return null
    return Array.isArray(value) ? value.join(', ') : value
  }
}

const decoder = new TextDecoder()

/** Answers that have no body whatever their headers say: a content coding of theirs is not undone. */
export const BODILESS_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304])

/**
 * The streams that undo an answer's content codings, in the order its bytes go through them (none for an answer
 * that is not coded, nor for one without a body: to `HEAD`, or a 204 or 304), as `fetch` undoes them: while the
 * body comes, so that a time limit or an abort ends the work. A coding it does not know leaves the bytes as they
 * are from there on.
 */
export function bodyDecoders(answer: IncomingMessage, method: string): Transform[] {
  const coding = answer.headers['content-encoding']
  if (coding === undefined || method === 'HEAD' || BODILESS_STATUSES.has(answer.statusCode ?? 0)) return []
  const codings = coding
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '' && part !== 'identity')
  const decoders: Transform[] = []
  const zlib = process.getBuiltinModule('node:zlib')
  for (const part of codings.reverse()) {
    if (part === 'gzip' || part === 'x-gzip') decoders.push(zlib.createGunzip())
    else if (part === 'deflate') decoders.push(zlib.createInflate())
    else if (part === 'br') decoders.push(zlib.createBrotliDecompress())
    else break
  }
  return decoders
}

/** A whole answer read with `node:http`/`node:https`: what the client reads of it, and all of it for a `Response`. */
export class NodeAnswer {
  readonly status: number
  readonly ok: boolean
  readonly statusText: string
  readonly headers: Pick<Headers, 'get'>
  /** Header names and values in the order they came, as Node gives them. */
  readonly rawHeaders: readonly string[]
  /** The body, content codings undone. */
  readonly body: Buffer

  /** @param body - The body, its content codings undone (see `bodyDecoders`). */
  constructor(answer: IncomingMessage, body: Buffer) {
    this.status = answer.statusCode ?? 0
    this.ok = this.status >= 200 && this.status < 300
    this.statusText = answer.statusMessage ?? ''
    this.headers = new NodeAnswerHeaders(answer.headers)
    this.rawHeaders = answer.rawHeaders
    this.body = body
  }

  /** The body as `fetch`'s `text()` gives it: UTF-8 with a leading BOM dropped. */
  text(): Promise<string> {
    return Promise.resolve(decoder.decode(this.body))
  }
}
