import { fork } from 'node:child_process'
import { join } from 'node:path'
import { consumeFirst } from './kafka-io.js'
import { interopDir } from './paths.js'

/** A record of a Kafka event, as Lambda's event source mapping writes it. */
export interface EventRecord {
  topic: string
  partition: number
  offset: number
  timestamp: number
  timestampType: string
  key?: string
  value: string | null
  headers: Record<string, number[]>[]
}

/** An Amazon MSK event: records grouped by "topic-partition". */
export interface MskEvent {
  eventSource: 'aws:kafka'
  eventSourceArn: string
  bootstrapServers: string
  records: Record<string, EventRecord[]>
}

/**
 * The first `count` records of `topic` as Lambda's event source mapping hands them to a function: key and value
 * base64, each header a `{ name: bytes }` object in the record's order, offsets and timestamps as numbers. Read with
 * kafkajs (a fresh consumer group); fails after `timeoutMs`.
 */
export function eventRecordsOf(
  brokers: string,
  topic: string,
  count: number,
  timeoutMs = 60_000,
): Promise<EventRecord[]> {
  return consumeFirst(
    brokers,
    topic,
    count,
    (message, partition) => {
      const headers: Record<string, number[]>[] = []
      for (const [name, value] of Object.entries(message.headers ?? {})) {
        for (const one of Array.isArray(value) ? value : [value]) {
          headers.push({
            [name]: [...(typeof one === 'string' ? Buffer.from(one) : (one ?? Buffer.alloc(0)))],
          })
        }
      }
      const record: EventRecord = {
        topic,
        partition,
        offset: Number(message.offset),
        timestamp: Number(message.timestamp),
        timestampType: 'CREATE_TIME',
        value: message.value === null ? null : message.value.toString('base64'),
        headers,
      }
      if (message.key !== null && message.key.length > 0) record.key = message.key.toString('base64')
      return record
    },
    { group: 'lambda', timeoutMs },
  )
}

/** An MSK event of `records`, grouped by "topic-partition" in their order. */
export function mskEvent(records: EventRecord[]): MskEvent {
  const groups: Record<string, EventRecord[]> = {}
  for (const record of records) {
    const group = `${record.topic}-${record.partition}`
    groups[group] = [...(groups[group] ?? []), record]
  }
  return {
    eventSource: 'aws:kafka',
    eventSourceArn: 'arn:aws:kafka:us-east-1:123456789012:cluster/interop/0',
    bootstrapServers: 'b-1.interop:9092',
    records: groups,
  }
}

/** What one invocation gave: the handler's result or error, and what its process spent. */
export interface Invocation<R> {
  result?: R
  error?: {
    name: string
    code?: string
    message: string
    failed?: { topic: string; partition: number; offset: string }
  }
  process: { cpuMs: number; wallMs: number; peakRssKb: number }
}

/**
 * One cold invocation: a fresh Node process imports `interop/lambda/<fn>/index.mjs` as Lambda's Node runtime does
 * and calls its `handler` with `event`, the environment `env` added to this one's.
 */
export function invokeCold<R>(
  fn: string,
  event: MskEvent,
  env: Record<string, string>,
): Promise<Invocation<R>> {
  const child = fork(join(interopDir, 'lambda/runtime.mjs'), [join(interopDir, 'lambda', fn)], {
    env: { ...process.env, ...env },
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      fail(new Error(`the ${fn} invocation did not answer in 60 s`))
    }, 60_000)
    child.once('message', (outcome) => {
      clearTimeout(timer)
      done(outcome as Invocation<R>)
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      fail(new Error(`the ${fn} invocation exited (${code}) without answering`))
    })
    child.send(event)
  })
}
