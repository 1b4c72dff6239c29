import { RegistryClient } from '@x/registry-client'
import type { Context, MSKEvent, SelfManagedKafkaEvent } from 'aws-lambda'
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import {
  type DecodedKafkaEvent,
  decodeKafkaEvent,
  type KafkaEvent,
  KafkaEventDecoder,
  kafkaConsumer,
} from './index.js'

// The event shapes of @types/aws-lambda are the ones the wrapper and the decoder take, and the decoded event keeps
// the event's own fields; a handler typed with them compiles unchanged.

/** A client of no registry: nothing here needs one (a request would fail). */
const client = new RegistryClient({
  url: 'http://127.0.0.1:9/apis/registry/v3',
  groupId: 'default',
  maxRetries: 0,
})
afterAll(() => client.close())

const mskEvent: MSKEvent = {
  eventSource: 'aws:kafka',
  eventSourceArn: 'arn:aws:kafka:us-east-1:123456789012:cluster/c/0',
  bootstrapServers: 'b-1:9092',
  records: {
    'orders-0': [
      {
        topic: 'orders',
        partition: 0,
        offset: 5,
        timestamp: 1,
        timestampType: 'CREATE_TIME',
        key: Buffer.from('0000000000000007', 'hex').toString('base64'),
        value: Buffer.from('{}').toString('base64'),
        headers: [{ trace: [97] }],
      },
    ],
  },
}

describe("@types/aws-lambda's Kafka events", () => {
  it('type-check as the events kafkaConsumer and decodeKafkaEvent take', () => {
    expectTypeOf<MSKEvent>().toExtend<KafkaEvent>()
    expectTypeOf<SelfManagedKafkaEvent>().toExtend<KafkaEvent>()
    const decoder = new KafkaEventDecoder(client, { keys: 'long', valueSchema: z.object({ n: z.number() }) })
    const handler = kafkaConsumer(
      async (event: DecodedKafkaEvent<{ n: number }, never, MSKEvent>, context: Context) => {
        expectTypeOf(event.eventSourceArn).toEqualTypeOf<string>()
        expectTypeOf(event.records[0]!.value).toEqualTypeOf<{ n: number } | null>()
        return context.awsRequestId
      },
      decoder,
    )
    expectTypeOf(handler).parameter(0).toEqualTypeOf<MSKEvent>()
    expectTypeOf(decodeKafkaEvent<{ n: number }, never>)
      .parameter(0)
      .toExtend<KafkaEvent>()
    expectTypeOf(decodeKafkaEvent<{ n: number }, never>).returns.resolves.items.toHaveProperty('offset')
  })

  it('are read as records without a registry when nothing needs one: a Long key and a key parsed by its schema', async () => {
    // A value that is no frame fails; here only keys are read, with a value-less record (a tombstone).
    const event: MSKEvent = {
      ...mskEvent,
      records: { 'orders-0': [{ ...mskEvent.records['orders-0']![0]!, value: null as unknown as string }] },
    }
    const decoder = new KafkaEventDecoder(client, {
      keys: 'long',
      keySchema: z.number().transform((n) => `order-${n}`),
    })
    const [record] = await decodeKafkaEvent(event, decoder)
    expect([record!.key, record!.value, record!.offset, record!.headers]).toEqual([
      'order-7',
      null,
      5,
      { trace: Buffer.from('a') },
    ])
  })
})
