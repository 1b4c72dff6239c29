import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'

/** Where a command reads and writes: the real process, or a test's buffers. */
export interface Io {
  stdout(text: string): void
  stderr(text: string): void
  /** Environment variables (`REGISTRY_URL`, …). */
  readonly env: Readonly<Record<string, string | undefined>>
  /** The folder relative paths are resolved against. */
  readonly cwd: string
  /** All of standard input. */
  readStdin(): Promise<Buffer>
}

/** The process's own streams and environment. A reader that closes standard output (`| head`) ends the run. */
export function processIo(): Io {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
    process.exit(process.exitCode ?? 0)
  })
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    readStdin: async () => {
      const chunks: Buffer[] = []
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
      return Buffer.concat(chunks)
    },
  }
}

/** Reads a file relative to the working folder, by its name as given: `#`, `?` and `%` are part of the name. */
export function readText(io: Io, path: string): Promise<string> {
  return readFile(resolve(io.cwd, path), 'utf8')
}
