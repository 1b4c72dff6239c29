/** The rows of the install-size table: the measurement's file name and what was installed. */
export const ROWS: readonly { id: string; installed: string }[]
export const BEGIN: string
export const END: string
/** The table (markdown) of the measurements (row id → the packages of the tree and their bytes). */
export function renderTable(sizes: ReadonlyMap<string, { packages: string[]; bytes: number }>): string
/** `text` with its marked block replaced by `table`; `undefined` when it has no such block. */
export function withBlock(text: string, table: string): string | undefined
/** Whether README.md's block (when it has one) is the table of docs/install-size.md. */
export function checkReadme(): { ok: boolean; message: string }
