import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A schema the stub serves, under the id our registry gave it (so every library writes the same frame). */
export interface StubSchema {
  id: number
  subject: string
  schema: string
  schemaType: 'AVRO' | 'JSON' | 'PROTOBUF'
  /** What `?format=serialized` asks for (Confluent's Protobuf serde): the FileDescriptorProto in base64. */
  serialized?: string
}

/**
 * The Confluent Schema Registry REST calls the peers make, answered in process on 127.0.0.1, with a request count
 * (the bench checks that warm loops send none): `GET /schemas/ids/{id}`, `GET /subjects/{s}/versions/latest`,
 * `POST /subjects/{s}/versions` and `POST /subjects/{s}` (register and look up), and Confluent's associations
 * (answered with none). Any id that is not one of `schemas` is answered with the schema of `fallbackSubject`, so a
 * cold-start test can use ids nobody has seen.
 */
export class ConfluentStub {
  readonly #server: Server
  readonly #schemas: readonly StubSchema[]
  requests = 0
  readonly url: string

  private constructor(server: Server, schemas: readonly StubSchema[]) {
    this.#server = server
    this.#schemas = schemas
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }

  static async start(schemas: readonly StubSchema[]): Promise<ConfluentStub> {
    const server = createServer()
    server.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    const stub = new ConfluentStub(server, schemas)
    server.on('request', (request, response) => {
      request.resume()
      request.on('end', () => {
        stub.requests += 1
        const { status, answer } = stub.#answer(
          request.method ?? 'GET',
          new URL(request.url ?? '/', 'http://stub'),
        )
        response.writeHead(status, { 'Content-Type': 'application/vnd.schemaregistry.v1+json' })
        response.end(JSON.stringify(answer))
      })
    })
    return stub
  }

  #answer(method: string, url: URL): { status: number; answer: unknown } {
    const path = url.pathname
    const serialized = url.searchParams.get('format') === 'serialized'
    const text = (s: StubSchema) => (serialized && s.serialized !== undefined ? s.serialized : s.schema)
    const byId = /^\/schemas\/ids\/(\d+)$/.exec(path)
    if (byId !== null) {
      const id = Number(byId[1])
      const found = this.#schemas.find((s) => s.id === id) ?? { ...this.#schemas[0]!, id }
      return { status: 200, answer: { schema: text(found), schemaType: found.schemaType } }
    }
    const subject = /^\/subjects\/([^/]+)/.exec(path)?.[1]
    const found = this.#schemas.find((s) => s.subject === decodeURIComponent(subject ?? ''))
    if (found !== undefined) {
      const version = {
        subject: found.subject,
        id: found.id,
        version: 1,
        schema: found.schema,
        schemaType: found.schemaType,
      }
      if (method === 'GET' && /\/versions\/(latest|1)$/.test(path)) return { status: 200, answer: version }
      if (method === 'POST' && path.endsWith('/versions')) return { status: 200, answer: { id: found.id } }
      if (method === 'POST') return { status: 200, answer: version }
    }
    if (path.startsWith('/associations/')) return { status: 200, answer: [] }
    return { status: 404, answer: { error_code: 40401, message: `not found: ${method} ${path}` } }
  }

  close(): Promise<void> {
    this.#server.closeAllConnections()
    return new Promise((resolve) => this.#server.close(() => resolve()))
  }
}
