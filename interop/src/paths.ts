import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))

/** The interop package (works from `src/` under vitest and from `dist/` once built). */
export const interopDir = resolve(here, '..')
/** The repository root. */
export const repoDir = resolve(interopDir, '..')
/** Scratch space of the integration stage (git-ignored). */
export const itDir = join(repoDir, '.it')
