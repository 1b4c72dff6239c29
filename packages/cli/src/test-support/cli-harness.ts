import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Io } from '../io.js'
import { run } from '../program.js'

/** What one `x-serde` run printed and returned. */
export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

/** Runs `x-serde` in process, in `cwd`, with `env` (and stdin), capturing what it prints. */
export async function cli(
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string>; stdin?: Buffer },
): Promise<CliRun> {
  let stdout = ''
  let stderr = ''
  const io: Io = {
    stdout: (text) => {
      stdout += text
    },
    stderr: (text) => {
      stderr += text
    },
    env: options.env ?? {},
    cwd: options.cwd,
    readStdin: async () => options.stdin ?? Buffer.alloc(0),
  }
  const code = await run(args, io)
  return { code, stdout, stderr }
}

/** A fresh working folder, removed by `done()`. */
export function workFolder(): { path: string; done(): void } {
  const path = mkdtempSync(join(tmpdir(), 'x-serde-cli-'))
  return { path, done: () => rmSync(path, { recursive: true, force: true }) }
}
