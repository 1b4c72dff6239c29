export function copiedFigures(text: string): { line: number; text: string }[]
