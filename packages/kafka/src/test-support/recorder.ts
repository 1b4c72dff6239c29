import type { OutgoingKafkaMessage } from '../kafkajs-types.js'

/** A producer that keeps what it is asked to send (a dead-letter topic's, in the wrappers' tests). */
export function recorder() {
  const sent: { topic: string; messages: OutgoingKafkaMessage[] }[] = []
  return { sent, producer: { send: async (record: (typeof sent)[number]) => void sent.push(record) } }
}
