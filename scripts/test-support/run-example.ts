import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** What a finished example printed. */
export interface ExampleRun {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * Runs a built example (`examples/<name>/dist/main.js`) with plain `node`, as a user would, and returns what it
 * printed. Bounded: the process is killed after `timeoutMs`.
 */
export function runExample(
  name: string,
  env: Record<string, string> = {},
  timeoutMs = 90_000,
): Promise<ExampleRun> {
  const main = fileURLToPath(new URL(`../../examples/${name}/dist/main.js`, import.meta.url))
  return new Promise((resolve) => {
    const { REGISTRY_URL: _ignored, ...inherited } = process.env
    execFile(
      process.execPath,
      [main],
      { env: { ...inherited, ...env }, timeout: timeoutMs, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0
        resolve({ code, stdout, stderr })
      },
    )
  })
}
