import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request as the local server received it, byte for byte. */
export interface ReceivedRequest {
  method: string
  /** Path and query. */
  url: string
  headers: IncomingHttpHeaders
  /** The raw body, decoded as UTF-8 (form bodies are ASCII). */
  body: string
}

/** Answers one request; `index` counts from 0. It may leave `res` open to simulate a hanging endpoint. */
export type Responder = (res: ServerResponse, request: ReceivedRequest, index: number) => void

export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string
  readonly requests: readonly ReceivedRequest[]
  /** How many requests the client dropped before their answer was complete. */
  readonly abortedByClient: number
  close(): Promise<void>
}

/**
 * A tiny HTTP server on 127.0.0.1 for answers a real OpenID provider never gives (bodies that are not JSON,
 * missing fields, a hanging endpoint...). Every request is recorded.
 */
export async function startLocalServer(respond: Responder): Promise<LocalServer> {
  const requests: ReceivedRequest[] = []
  let abortedByClient = 0
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const request: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      requests.push(request)
      res.on('close', () => {
        if (!res.writableFinished) abortedByClient++
      })
      respond(res, request, requests.length - 1)
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    get abortedByClient() {
      return abortedByClient
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Sends `body` with `status`; objects are sent as JSON. */
export function answer(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' })
  res.end(text)
}

/** Waits until `condition()` holds, checking every 10 ms, for at most `timeoutMs`; then throws. */
export async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
