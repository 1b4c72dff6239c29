import { describe, expect, it } from 'vitest'
import { withDecoded } from './decoded-payload.js'

const message = { key: null, value: Buffer.from([1]), headers: {}, offset: '7', timestamp: '0' }
const heartbeat = async () => {}
const pause = () => () => {}

describe('withDecoded', () => {
  it('gives KafkaJS’s five-field payload with decoded added, equal to the spread, in the same key order', () => {
    const payload = { topic: 't', partition: 2, message, heartbeat, pause }
    const out = withDecoded(payload, { value: 1 })
    expect(out).toStrictEqual({ ...payload, decoded: { value: 1 } })
    expect(Object.keys(out)).toEqual(['topic', 'partition', 'message', 'heartbeat', 'pause', 'decoded'])
    expect(out).not.toBe(payload)
    expect(payload).not.toHaveProperty('decoded')
  })

  it('keeps every field of a payload of another shape: an extra field, a missing one, another order', () => {
    const shapes: object[] = [
      { topic: 't', partition: 2, message, heartbeat, pause, batchContext: { leaderEpoch: 1 } },
      { topic: 't', partition: 2, message },
      { partition: 2, topic: 't', message, heartbeat, pause },
      { topic: 't', partition: 2, message, heartbeat, other: pause },
    ]
    for (const payload of shapes) {
      const out = withDecoded(payload, 'd')
      expect(out).toStrictEqual({ ...payload, decoded: 'd' })
      expect(Object.keys(out)).toEqual([...Object.keys(payload), 'decoded'])
    }
  })

  it('copies own fields only, as the spread does: an inherited enumerable field is not copied', () => {
    const payload = Object.assign(Object.create({ inherited: 1 }), {
      topic: 't',
      partition: 2,
      message,
      heartbeat,
      pause,
    })
    const out = withDecoded(payload, 'd')
    expect(out).toStrictEqual({ ...payload, decoded: 'd' })
    expect(out).not.toHaveProperty('inherited')
  })
})
