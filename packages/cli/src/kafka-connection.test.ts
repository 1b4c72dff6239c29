import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Io } from './io.js'
import { BrokerUnreachable, brokerError, kafkaConfig } from './kafka-connection.js'
import { UsageError } from './usage-error.js'

function io(env: Record<string, string> = {}, cwd = '/'): Io {
  return { stdout: () => {}, stderr: () => {}, env, cwd, readStdin: async () => Buffer.alloc(0) }
}

describe('kafkaConfig', () => {
  it('takes the brokers from --brokers, else KAFKA_BROKERS, and refuses a list that is not host:port', () => {
    expect(kafkaConfig({ brokers: 'a:9092, b:9093' }, io({ KAFKA_BROKERS: 'c:1' }), 'x').brokers).toEqual([
      'a:9092',
      'b:9093',
    ])
    expect(kafkaConfig({}, io({ KAFKA_BROKERS: 'c:1' }), 'x').brokers).toEqual(['c:1'])
    expect(() => kafkaConfig({}, io(), 'x')).toThrow(
      new UsageError('No brokers: pass --brokers host:port[,host:port] or set KAFKA_BROKERS'),
    )
    expect(() => kafkaConfig({ brokers: 'localhost' }, io(), 'x')).toThrow(
      '--brokers takes host:port[,host:port], got localhost',
    )
  })

  it('takes the SASL password from KAFKA_SASL_PASSWORD only, and the mechanism and user from flags or the environment', () => {
    const env = { KAFKA_SASL_USERNAME: 'alice', KAFKA_SASL_PASSWORD: 's3cret' }
    expect(kafkaConfig({ brokers: 'a:1', saslMechanism: 'scram-sha-512' }, io(env), 'x').sasl).toEqual({
      mechanism: 'scram-sha-512',
      username: 'alice',
      password: 's3cret',
    })
    expect(
      kafkaConfig({ brokers: 'a:1', saslUsername: 'bob' }, io({ ...env, KAFKA_SASL_MECHANISM: 'PLAIN' }), 'x')
        .sasl,
    ).toEqual({ mechanism: 'plain', username: 'bob', password: 's3cret' })
    expect(() =>
      kafkaConfig({ brokers: 'a:1', saslMechanism: 'plain' }, io({ KAFKA_SASL_USERNAME: 'alice' }), 'x'),
    ).toThrow('SASL PLAIN needs KAFKA_SASL_USERNAME (or --sasl-username) and KAFKA_SASL_PASSWORD')
    expect(() => kafkaConfig({ brokers: 'a:1', saslMechanism: 'gssapi' }, io(env), 'x')).toThrow(
      '--sasl-mechanism must be one of plain, scram-sha-256, scram-sha-512, got gssapi',
    )
    expect(kafkaConfig({ brokers: 'a:1' }, io(env), 'x').sasl).toBeUndefined()
  })

  it('turns TLS on with --tls or KAFKA_TLS=1, reading the CA, certificate and key files given', () => {
    const dir = mkdtempSync(join(tmpdir(), 'x-serde-tls-'))
    writeFileSync(join(dir, 'ca.pem'), 'CA')
    writeFileSync(join(dir, 'cert.pem'), 'CERT')
    writeFileSync(join(dir, 'key.pem'), 'KEY')
    expect(kafkaConfig({ brokers: 'a:1', tls: true }, io(), 'x').ssl).toEqual({})
    expect(kafkaConfig({ brokers: 'a:1' }, io({ KAFKA_TLS: '1' }), 'x').ssl).toEqual({})
    expect(kafkaConfig({ brokers: 'a:1' }, io(), 'x').ssl).toBeUndefined()
    expect(
      kafkaConfig(
        { brokers: 'a:1', tlsCa: 'ca.pem', tlsCert: 'cert.pem', tlsKey: 'key.pem' },
        io({ KAFKA_TLS_KEY_PASSWORD: 'pw' }, dir),
        'x',
      ).ssl,
    ).toEqual({ ca: ['CA'], cert: 'CERT', key: 'KEY', passphrase: 'pw' })
    expect(() => kafkaConfig({ brokers: 'a:1', tlsCert: 'cert.pem' }, io({}, dir), 'x')).toThrow(
      '--tls-cert and --tls-key go together',
    )
    expect(() => kafkaConfig({ brokers: 'a:1', tlsCa: 'missing.pem' }, io({}, dir), 'x')).toThrow(
      /^--tls-ca: cannot read missing\.pem: ENOENT/,
    )
  })

  it('makes KafkaJS connection errors a BrokerUnreachable naming the brokers, and leaves other errors as they are', () => {
    const refused = Object.assign(new Error('Connection error: connect ECONNREFUSED 127.0.0.1:1'), {
      name: 'KafkaJSConnectionError',
    })
    const mapped = brokerError(refused, ['127.0.0.1:1'])
    expect(mapped).toBeInstanceOf(BrokerUnreachable)
    expect((mapped as Error).message).toBe(
      'Unable to use the brokers 127.0.0.1:1: Connection error: connect ECONNREFUSED 127.0.0.1:1',
    )
    const other = new TypeError('misuse')
    expect(brokerError(other, ['a:1'])).toBe(other)
  })
})
