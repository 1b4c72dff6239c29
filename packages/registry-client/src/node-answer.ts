import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'

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

/** The body with its content codings undone, as `fetch` gives it. Throws on a coding that does not decode. */
function decodeBody(body: Buffer, coding: string | undefined): Buffer {
  let bytes = body
  const codings = (coding ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '' && part !== 'identity')
  for (const part of codings.reverse()) {
    const zlib = process.getBuiltinModule('node:zlib')
    if (part === 'gzip' || part === 'x-gzip') bytes = zlib.gunzipSync(bytes)
    else if (part === 'deflate') bytes = zlib.inflateSync(bytes)
    else if (part === 'br') bytes = zlib.brotliDecompressSync(bytes)
    else break
  }
  return bytes
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

  /** @throws the error of a content coding that does not decode. */
  constructor(answer: IncomingMessage, body: Buffer) {
    this.status = answer.statusCode ?? 0
    this.ok = this.status >= 200 && this.status < 300
    this.statusText = answer.statusMessage ?? ''
    this.headers = new NodeAnswerHeaders(answer.headers)
    this.rawHeaders = answer.rawHeaders
    this.body = decodeBody(body, answer.headers['content-encoding'])
  }

  /** The body as `fetch`'s `text()` gives it: UTF-8 with a leading BOM dropped. */
  text(): Promise<string> {
    return Promise.resolve(decoder.decode(this.body))
  }
}
