import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { KafkaConfig, SASLOptions } from 'kafkajs'
import type { Io } from './io.js'
import { UsageError } from './usage-error.js'

/** The options `consume` and `produce` take to reach the brokers. */
export interface KafkaFlags {
  brokers?: string | undefined
  saslMechanism?: string | undefined
  saslUsername?: string | undefined
  tls?: boolean | undefined
  tlsCa?: string | undefined
  tlsCert?: string | undefined
  tlsKey?: string | undefined
}

const MECHANISMS = ['plain', 'scram-sha-256', 'scram-sha-512'] as const

/**
 * The KafkaJS configuration of a command, from flags or the environment (flags win): `--brokers` / `KAFKA_BROKERS`
 * (`host:port,host:port`); `--sasl-mechanism` / `KAFKA_SASL_MECHANISM` (`plain`, `scram-sha-256`, `scram-sha-512`)
 * with `--sasl-username` / `KAFKA_SASL_USERNAME` and `KAFKA_SASL_PASSWORD` (environment only, as the registry's
 * client secret: it stays out of shell history and process lists); `--tls` / `KAFKA_TLS=1`, with `--tls-ca`,
 * `--tls-cert` and `--tls-key` files (the key's passphrase, if any, from `KAFKA_TLS_KEY_PASSWORD` only). Nothing
 * here is ever printed but the broker list.
 */
export function kafkaConfig(flags: KafkaFlags, io: Io, clientId: string): KafkaConfig {
  const list = flags.brokers ?? io.env.KAFKA_BROKERS
  const brokers = (list ?? '')
    .split(',')
    .map((broker) => broker.trim())
    .filter((broker) => broker !== '')
  if (brokers.length === 0) {
    throw new UsageError('No brokers: pass --brokers host:port[,host:port] or set KAFKA_BROKERS')
  }
  for (const broker of brokers) {
    if (!/^[^\s:/]+:\d+$/.test(broker) && !/^\[[0-9a-fA-F:]+\]:\d+$/.test(broker)) {
      throw new UsageError(`--brokers takes host:port[,host:port], got ${broker}`)
    }
  }
  const config: KafkaConfig = {
    clientId,
    brokers,
    connectionTimeout: 5_000,
    requestTimeout: 30_000,
    retry: { retries: 3, initialRetryTime: 200 },
  }
  const mechanism = (flags.saslMechanism ?? io.env.KAFKA_SASL_MECHANISM)?.toLowerCase()
  if (mechanism !== undefined && mechanism !== '') {
    if (!(MECHANISMS as readonly string[]).includes(mechanism)) {
      throw new UsageError(`--sasl-mechanism must be one of ${MECHANISMS.join(', ')}, got ${mechanism}`)
    }
    const username = flags.saslUsername ?? io.env.KAFKA_SASL_USERNAME
    const password = io.env.KAFKA_SASL_PASSWORD
    if (!username || !password) {
      throw new UsageError(
        `SASL ${mechanism.toUpperCase()} needs KAFKA_SASL_USERNAME (or --sasl-username) and KAFKA_SASL_PASSWORD`,
      )
    }
    config.sasl = { mechanism, username, password } as SASLOptions
  }
  const tls = flags.tls ?? ['1', 'true', 'yes'].includes((io.env.KAFKA_TLS ?? '').toLowerCase())
  if (tls || flags.tlsCa !== undefined || flags.tlsCert !== undefined || flags.tlsKey !== undefined) {
    if ((flags.tlsCert === undefined) !== (flags.tlsKey === undefined)) {
      throw new UsageError('--tls-cert and --tls-key go together (a client certificate and its key)')
    }
    const passphrase = io.env.KAFKA_TLS_KEY_PASSWORD
    config.ssl = {
      ...(flags.tlsCa === undefined ? {} : { ca: [readPem(io, flags.tlsCa, '--tls-ca')] }),
      ...(flags.tlsCert === undefined ? {} : { cert: readPem(io, flags.tlsCert, '--tls-cert') }),
      ...(flags.tlsKey === undefined ? {} : { key: readPem(io, flags.tlsKey, '--tls-key') }),
      ...(passphrase ? { passphrase } : {}),
    }
  }
  return config
}

function readPem(io: Io, path: string, flag: string): string {
  try {
    return readFileSync(resolve(io.cwd, path), 'utf8')
  } catch (error) {
    throw new UsageError(`${flag}: cannot read ${path}: ${(error as Error).message}`)
  }
}

/** The broker could not be used (KafkaJS's connection and retry errors): exit code 3, as an unreachable registry. */
export class BrokerUnreachable extends Error {
  override name = 'BrokerUnreachable'
}

/** KafkaJS's errors that mean the brokers were not reached (or refused the credentials), as a {@link BrokerUnreachable}. */
export function brokerError(error: unknown, brokers: readonly string[]): unknown {
  const name = (error as { name?: unknown })?.name
  if (
    typeof name === 'string' &&
    /^KafkaJS(Connection|NumberOfRetriesExceeded|SASLAuthentication|BrokerNotFound|RequestTimeout)/.test(name)
  ) {
    const cause = (error as { cause?: { message?: string } }).cause
    const message = (error as Error).message
    return new BrokerUnreachable(
      `Unable to use the brokers ${brokers.join(',')}: ${message}${cause?.message && !message.includes(cause.message) ? ` (${cause.message})` : ''}`,
      { cause: error },
    )
  }
  return error
}
