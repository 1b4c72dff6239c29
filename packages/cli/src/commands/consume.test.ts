import { describe, expect, it } from 'vitest'
import { cli, workFolder } from '../test-support/cli-harness.js'
import { consumePlan } from './consume.js'

describe('consume', () => {
  it('starts at the beginning, or the end with --follow, or at --offset / --from-timestamp (ISO or epoch ms)', () => {
    expect(consumePlan({})).toEqual({
      start: { kind: 'beginning' },
      follow: false,
      max: undefined,
      partitions: undefined,
      group: undefined,
      useId: 'globalId',
      idSize: 4,
      keyType: 'bytes',
      encoding: 'binary',
    })
    expect(consumePlan({ follow: true }).start).toEqual({ kind: 'end' })
    expect(consumePlan({ follow: true, offset: '9007199254740993' }).start).toEqual({
      kind: 'offset',
      offset: 9007199254740993n,
    })
    expect(consumePlan({ fromTimestamp: '2026-11-25T18:00:00Z' }).start).toEqual({
      kind: 'timestamp',
      ms: Date.parse('2026-11-25T18:00:00Z'),
    })
    expect(consumePlan({ fromTimestamp: '1764093600000' }).start).toEqual({
      kind: 'timestamp',
      ms: 1764093600000,
    })
  })

  it('takes --max, partitions as a list or repeated, a consumer group and how to read ids', () => {
    const plan = consumePlan({ max: '3', partition: ['0,2', '5'], group: 'ops', useId: 'contentId' })
    expect(plan).toMatchObject({ max: 3, partitions: [0, 2, 5], group: 'ops', useId: 'contentId' })
    expect(consumePlan({ idSize: '8' }).idSize).toBe(8)
    expect(consumePlan({ idSize: 'auto' }).idSize).toBe('auto')
    expect(() => consumePlan({ idSize: '6' })).toThrow('--id-size must be 4, 8 or auto, got 6')
    expect(consumePlan({ encoding: 'auto' }).encoding).toBe('auto')
    expect(() => consumePlan({ encoding: 'xml' })).toThrow('--encoding must be binary, json or auto, got xml')
  })

  it('refuses what it cannot read, saying what it expected', () => {
    expect(() => consumePlan({ offset: '-1' })).toThrow(
      '--offset takes an offset (an integer from 0), got -1',
    )
    expect(() => consumePlan({ offset: '1', fromTimestamp: '1' })).toThrow(
      'Give --offset or --from-timestamp, not both',
    )
    expect(() => consumePlan({ fromTimestamp: 'yesterday' })).toThrow(
      '--from-timestamp takes an ISO date (2026-11-25T18:00:00Z) or epoch milliseconds, got yesterday',
    )
    expect(() => consumePlan({ max: 'all' })).toThrow('--max takes a number of messages, got all')
    expect(() => consumePlan({ partition: ['1,x'] })).toThrow('--partition takes partition numbers, got x')
  })

  it('checks its flags before connecting to anything (exit 2), and never takes a secret as a flag', async () => {
    const folder = workFolder()
    try {
      const env = { REGISTRY_URL: 'http://127.0.0.1:1/apis/registry/v3', KAFKA_BROKERS: '127.0.0.1:1' }
      const bad = await cli(['consume', 'orders', '--offset', 'x'], { cwd: folder.path, env })
      expect(bad).toEqual({
        code: 2,
        stdout: '',
        stderr: 'x-serde: --offset takes an offset (an integer from 0), got x\n',
      })
      const secret = await cli(['consume', 'orders', '--sasl-password', 'x'], { cwd: folder.path, env })
      expect(secret.code).toBe(2)
      expect(secret.stderr).toContain("error: unknown option '--sasl-password'")
      const noRegistry = await cli(['consume', 'orders'], { cwd: folder.path, env: { KAFKA_BROKERS: 'a:1' } })
      expect(noRegistry.code).toBe(2)
      expect(noRegistry.stderr).toMatch(/^x-serde: No registry: pass --registry/)
    } finally {
      folder.done()
    }
  })

  it('exits 3 naming the brokers when they cannot be reached', async () => {
    const folder = workFolder()
    try {
      const run = await cli(['consume', 'orders', '--brokers', '127.0.0.1:1'], {
        cwd: folder.path,
        env: { REGISTRY_URL: 'http://127.0.0.1:1/apis/registry/v3' },
      })
      expect(run.code).toBe(3)
      expect(run.stdout).toBe('')
      expect(run.stderr).toMatch(/^x-serde: Unable to use the brokers 127\.0\.0\.1:1: .*ECONNREFUSED/)
    } finally {
      folder.done()
    }
  })
})
