import * as nodeModule from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * The registry and broker the end-to-end bench runs against: the ones given by `REGISTRY_URL`
 * (`http://host:port/apis/registry/v3`) and `KAFKA_BROKERS` (`host:port`), or else a real Apicurio Registry 3.3.3 and
 * Kafka 3.9 started by the very global setups of the integration stage (scripts/integration/apicurio.ts and
 * kafka.ts, from the .it/ and ~/.m2 caches), stopped again by `stop`.
 */
export interface Infra {
  /** Apicurio's v3 API, `…/apis/registry/v3`. */
  registryUrl: string
  /** Apicurio's Confluent-compatible API on the same server, `…/apis/ccompat/v7` (its ids are contentIds). */
  ccompatUrl: string
  brokers: string
  /** What was started (for the report), or `undefined` when both were given. */
  started: string | undefined
  stop(): Promise<void>
}

const REPO = new URL('../../../', import.meta.url)

type Setup = (project: {
  provide(key: string, value: string): void
}) => Promise<(() => Promise<void>) | undefined>

/**
 * The integration setups are TypeScript that vitest loads; Node 22.18+ strips their types itself, and this hook maps
 * their `./processes.js` imports to the `.ts` files beside them.
 */
let hooked = false
async function loadSetup(name: 'apicurio' | 'kafka'): Promise<Setup> {
  if (!hooked) {
    hooked = true
    const dir = new URL('scripts/integration/', REPO).href
    // registerHooks is Node 22.15+ (the typings are Node 20's).
    const { registerHooks } = nodeModule as unknown as {
      registerHooks(hooks: {
        resolve(
          specifier: string,
          context: { parentURL?: string | undefined },
          next: (specifier: string, context: unknown) => unknown,
        ): unknown
      }): void
    }
    registerHooks({
      resolve(specifier, context, next) {
        if (
          context.parentURL?.startsWith(dir) === true &&
          specifier.startsWith('./') &&
          specifier.endsWith('.js')
        ) {
          return next(specifier.replace(/\.js$/, '.ts'), context)
        }
        return next(specifier, context)
      },
    })
  }
  const url = pathToFileURL(fileURLToPath(new URL(`scripts/integration/${name}.ts`, REPO)))
  return ((await import(url.href)) as { default: Setup }).default
}

async function start(
  name: 'apicurio' | 'kafka',
  key: string,
): Promise<{ value: string; stop: () => Promise<void> }> {
  const setup = await loadSetup(name)
  let value: string | undefined
  const stop = await setup({
    provide: (k, v) => {
      if (k === key) value = v
    },
  })
  if (value === undefined) throw new Error(`the ${name} setup provided no ${key}`)
  return { value, stop: stop ?? (async () => {}) }
}

/** The Confluent-compatible API of the Apicurio server behind a v3 URL. */
export function ccompatOf(registryUrl: string): string {
  const match = /^(.*)\/apis\/registry\/v3\/?$/.exec(registryUrl)
  if (match === null) {
    throw new TypeError(`REGISTRY_URL must end in /apis/registry/v3 (Apicurio 3's API), got '${registryUrl}'`)
  }
  return `${match[1]}/apis/ccompat/v7`
}

export async function openInfra(env: NodeJS.ProcessEnv): Promise<Infra> {
  const stops: (() => Promise<void>)[] = []
  const startedNames: string[] = []
  const stop = async () => {
    for (const one of stops.reverse()) await one()
  }
  try {
    let registryUrl = env.REGISTRY_URL?.replace(/\/+$/, '')
    if (registryUrl === undefined || registryUrl === '') {
      const registry = await start('apicurio', 'registryUrl')
      stops.push(registry.stop)
      registryUrl = registry.value
      startedNames.push('Apicurio Registry')
    }
    let brokers = env.KAFKA_BROKERS
    if (brokers === undefined || brokers === '') {
      const kafka = await start('kafka', 'kafkaBrokers')
      stops.push(kafka.stop)
      brokers = kafka.value
      startedNames.push('Kafka')
    }
    return {
      registryUrl,
      ccompatUrl: ccompatOf(registryUrl),
      brokers,
      started: startedNames.length === 0 ? undefined : startedNames.join(' and '),
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}
