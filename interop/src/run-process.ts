import { spawn } from 'node:child_process'

export interface RunOptions {
  /** Working directory. @default the current one */
  cwd?: string
  /** Text written to the child's stdin, which is then closed. @default nothing (stdin closed at once) */
  input?: string
  /** Killed (SIGKILL) after this many milliseconds. @default 120000 */
  timeoutMs?: number
  /** Extra environment variables. @default none */
  env?: Record<string, string>
}

export interface RunResult {
  stdout: string
  stderr: string
}

/** Thrown when a child process exits with a non-zero code, is killed, or cannot start; carries its output. */
export class ProcessError extends Error {
  override name = 'ProcessError'
  readonly exitCode: number | null
  readonly stdout: string
  readonly stderr: string

  constructor(message: string, exitCode: number | null, stdout: string, stderr: string) {
    super(message)
    this.exitCode = exitCode
    this.stdout = stdout
    this.stderr = stderr
  }
}

/** Runs a command to completion within a time limit; rejects with a {@link ProcessError} naming the output's tail. */
export function runProcess(
  command: string,
  args: readonly string[],
  options: RunOptions = {},
): Promise<RunResult> {
  const timeoutMs = options.timeoutMs ?? 120_000
  return new Promise((done, fail) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    let timedOut = false
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
    })
    child.stdin.on('error', () => {})
    child.stdin.end(options.input ?? '')
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, timeoutMs)
    const describe = `${command} ${args.join(' ')}`
    child.on('error', (error) => {
      clearTimeout(timer)
      fail(new ProcessError(`cannot run ${describe}: ${error.message}`, null, stdout, stderr))
    })
    child.on('close', (code) => {
      clearTimeout(timer)
      if (code === 0 && !timedOut) {
        done({ stdout, stderr })
        return
      }
      const why = timedOut ? `was killed after ${timeoutMs / 1000} s` : `exited with ${code}`
      const tail = `${stderr || stdout}`.trim().split('\n').slice(-25).join('\n')
      fail(new ProcessError(`${describe} ${why}\n${tail}`, code, stdout, stderr))
    })
  })
}

/** The non-empty lines of a program's output. */
export function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '')
}
