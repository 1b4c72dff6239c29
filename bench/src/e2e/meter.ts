import type { Phase } from './types.js'

/** Wall time and the process's CPU time (user + system) between `begin` and `end`. */
export class Meter {
  #wall = 0n
  #cpu: NodeJS.CpuUsage | undefined

  begin(): void {
    this.#cpu = process.cpuUsage()
    this.#wall = process.hrtime.bigint()
  }

  get begun(): boolean {
    return this.#cpu !== undefined
  }

  /** Wall milliseconds since `begin`. */
  elapsedMs(): number {
    return Number(process.hrtime.bigint() - this.#wall) / 1e6
  }

  end(messages: number): Phase {
    const wall = process.hrtime.bigint() - this.#wall
    const cpu = process.cpuUsage(this.#cpu)
    return { messages, seconds: Number(wall) / 1e9, cpuMicros: cpu.user + cpu.system }
  }
}

/** Milliseconds spent inside the serde, summed over calls (`performance.now()` around each). */
export class SerdeClock {
  ms = 0
}
