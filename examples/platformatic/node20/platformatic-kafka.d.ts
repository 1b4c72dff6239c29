// pnpm installs @platformatic/kafka 2.x (an optional dependency: it needs Node 22 or newer) only on Node 22 and
// newer, but the workspace is also built on Node 20. There these types of the part the example uses stand in, so
// that it compiles: tsconfig.json's `paths` maps the package to its own types first, to this file only without them.
export const MessagesStreamModes: { EARLIEST: string }
export const DeserializationErrorActions: {
  readonly FAIL: 'fail'
  readonly SKIP: 'skip'
  readonly CONTINUE: 'continue'
}
export class Producer {
  constructor(options: Record<string, unknown>)
  send(request: { messages: { topic: string; key?: unknown; value?: unknown }[] }): Promise<unknown>
  close(): Promise<void>
}
export class Consumer {
  constructor(options: Record<string, unknown>)
  consume(options: {
    topics: string[]
    mode: string
    onDeserializationError?: (context: {
      error: unknown
      payloadType: string
      record: {
        key: Buffer | null
        value: Buffer | null
        headers: [Buffer | null, Buffer | null][]
        offsetDelta: number
      }
      topic: string
      partition: number
      offset: bigint
      timestamp: bigint
    }) => 'fail' | 'skip' | 'continue'
  }): Promise<
    AsyncIterable<{ value: unknown; metadata: Record<string, unknown> }> & { close(): Promise<void> }
  >
  close(force?: boolean): Promise<void>
}
