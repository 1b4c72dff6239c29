import { createConnection, createServer, type Server, type Socket } from 'node:net'

/**
 * A TCP proxy on 127.0.0.1 (a free port) in front of `target`, to take a server "down" for one client without
 * stopping it: `down()` closes every open connection and refuses (closes at once) every new one until `up()`.
 * `connections` counts the connections clients opened, `refused` those closed while down.
 */
export class TcpProxy {
  readonly #server: Server
  readonly #target: { host: string; port: number }
  readonly #open = new Set<Socket>()
  #down = false
  connections = 0
  refused = 0

  private constructor(server: Server, target: { host: string; port: number }) {
    this.#server = server
    this.#target = target
    server.on('connection', (socket) => this.#accept(socket))
  }

  static start(target: { host: string; port: number }): Promise<TcpProxy> {
    const server = createServer()
    const proxy = new TcpProxy(server, target)
    return new Promise((done, fail) => {
      server.once('error', fail)
      server.listen(0, '127.0.0.1', () => done(proxy))
    })
  }

  get port(): number {
    const address = this.#server.address()
    if (typeof address !== 'object' || address === null) throw new Error('TcpProxy: not listening')
    return address.port
  }

  down(): void {
    this.#down = true
    for (const socket of this.#open) socket.destroy()
    this.#open.clear()
  }

  up(): void {
    this.#down = false
  }

  close(): Promise<void> {
    this.down()
    return new Promise((done) => this.#server.close(() => done()))
  }

  #accept(client: Socket): void {
    this.connections += 1
    if (this.#down) {
      this.refused += 1
      client.destroy()
      return
    }
    const upstream = createConnection(this.#target)
    this.#open.add(client)
    this.#open.add(upstream)
    const close = () => {
      client.destroy()
      upstream.destroy()
      this.#open.delete(client)
      this.#open.delete(upstream)
    }
    client.on('error', close).on('close', close)
    upstream.on('error', close).on('close', close)
    client.pipe(upstream)
    upstream.pipe(client)
  }
}
