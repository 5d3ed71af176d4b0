export function buildWidget(outDir: string): Promise<{ raw: number; gzip: number; brotli: number }>;
