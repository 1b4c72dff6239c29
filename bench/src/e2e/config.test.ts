import { describe, expect, it } from 'vitest'
import { readConfig, writesResults } from './config.js'

describe('pnpm bench:e2e arguments', () => {
  it('runs every part by default: 100 000 messages, 5 000 to warm up, 3 rounds of rows, 5 of producers and of consumers', () => {
    expect(readConfig([], {})).toEqual({
      quick: false,
      filter: undefined,
      parts: { rows: true, producers: true, consumers: true },
      messages: 100_000,
      warmup: 5000,
      rounds: 3,
      producerRounds: 5,
      consumerRounds: 5,
      cpuProf: undefined,
      nodeFlags: [],
      jsonFile: undefined,
    })
  })

  it('makes a quick run short: 2 000 messages, 200 to warm up, one round of each part', () => {
    const config = readConfig(['--', '--quick'], {})
    expect(config).toMatchObject({
      messages: 2000,
      warmup: 200,
      rounds: 1,
      producerRounds: 1,
      consumerRounds: 1,
    })
    expect(writesResults(config as Exclude<typeof config, 'help'>)).toBe(false)
  })

  it('runs one part when asked, and takes counts from the environment', () => {
    const config = readConfig(['--part=consumers', '--cpu-prof=/tmp/p'], {
      E2E_MESSAGES: '20000',
      E2E_CONSUMER_ROUNDS: '7',
    })
    expect(config).toMatchObject({
      parts: { rows: false, producers: false, consumers: true },
      messages: 20_000,
      consumerRounds: 7,
      cpuProf: '/tmp/p',
    })
    expect(readConfig(['--part=rows'], {})).toMatchObject({
      parts: { rows: true, producers: false, consumers: false },
    })
    expect(readConfig(['--part=producers'], { E2E_PRODUCER_ROUNDS: '9' })).toMatchObject({
      parts: { rows: false, producers: true, consumers: false },
      producerRounds: 9,
    })
    expect(writesResults(readConfig(['--part=producers'], {}) as never)).toBe(true)
    expect(writesResults(readConfig(['--part=rows'], {}) as never)).toBe(true)
    expect(writesResults(config as never)).toBe(false)
    expect(writesResults(readConfig(['--filter=avro/'], {}) as never)).toBe(false)
  })

  it('gives every --node-flag to the processes, in order, and then writes nothing', () => {
    const config = readConfig(
      ['--part=producers', '--node-flag=--no-allocation-site-pretenuring', '--node-flag=--trace-gc'],
      {},
    )
    expect(config).toMatchObject({ nodeFlags: ['--no-allocation-site-pretenuring', '--trace-gc'] })
    expect(writesResults(config as never)).toBe(false)
    expect(() => readConfig(['--node-flag=trace-gc'], {})).toThrow(/^Unknown argument '--node-flag=trace-gc'/)
    expect(() => readConfig(['--node-flag=--'], {})).toThrow(/^Unknown argument '--node-flag=--'/)
  })

  it('refuses an unknown argument or part, and a count that is not a positive integer', () => {
    expect(() => readConfig(['--part=all'], {})).toThrow(TypeError)
    expect(() => readConfig(['--part=all'], {})).toThrow(/^Unknown argument '--part=all'/)
    expect(() => readConfig(['--cpu-prof='], {})).toThrow(/^Unknown argument '--cpu-prof='/)
    expect(() => readConfig([], { E2E_CONSUMER_ROUNDS: '0' })).toThrow(
      "E2E_CONSUMER_ROUNDS must be a positive integer, got '0'",
    )
    expect(() => readConfig([], { E2E_PRODUCER_ROUNDS: '-1' })).toThrow(
      "E2E_PRODUCER_ROUNDS must be a positive integer, got '-1'",
    )
    expect(() => readConfig([], { E2E_MESSAGES: '1.5' })).toThrow(
      "E2E_MESSAGES must be a positive integer, got '1.5'",
    )
    expect(readConfig(['--help'], {})).toBe('help')
  })
})
