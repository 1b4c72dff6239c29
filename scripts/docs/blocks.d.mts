export declare const MARKS: readonly string[]
export interface Block {
  line: number
  lang: string
  marks: string[]
  kind: 'js' | 'ts' | 'sh' | undefined
  code: string
}
export declare function documentationFiles(root: string): string[]
export declare function blocksOf(text: string): Block[]
export declare function problemOf(block: Block): string | undefined
export declare function includesOf(text: string): string[]
export declare function includeProblems(root: string, file: string, text: string): string[]
export declare function collect(root: string): {
  files: { file: string; blocks: Block[] }[]
  problems: string[]
}
