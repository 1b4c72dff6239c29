import type { KafkaEvent, KafkaEventRecord } from '../index.js'

/** A record of a Kafka event, as Lambda's event source mapping writes it: key and value base64, headers as bytes. */
export function eventRecord(
  topic: string,
  partition: number,
  offset: number,
  key: Uint8Array | null,
  value: Uint8Array | null,
  headers: [string, Uint8Array][] = [],
): KafkaEventRecord {
  const record: KafkaEventRecord = {
    topic,
    partition,
    offset,
    timestamp: 1_700_000_000_000 + offset,
    timestampType: 'CREATE_TIME',
    value: value === null ? null : Buffer.from(value).toString('base64'),
    headers: headers.map(([name, bytes]) => ({ [name]: [...bytes] })),
  }
  if (key !== null) record.key = Buffer.from(key).toString('base64')
  return record
}

/** An Amazon MSK event of `records`, grouped by "topic-partition" as Lambda groups them. */
export function mskEvent(records: KafkaEventRecord[]): KafkaEvent {
  const groups: Record<string, KafkaEventRecord[]> = {}
  for (const record of records) {
    const group = `${record.topic}-${record.partition}`
    groups[group] = [...(groups[group] ?? []), record]
  }
  return {
    eventSource: 'aws:kafka',
    eventSourceArn: 'arn:aws:kafka:us-east-1:123456789012:cluster/test/abc',
    bootstrapServers: 'b-1.test:9092',
    records: groups,
  }
}
