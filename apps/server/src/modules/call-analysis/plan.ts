/**
 * Whether a call needs post-call analysis, decided from its assistant's settings alone. The
 * webhooks module asks this so that call.ended webhooks of analysed calls wait for the analysis
 * (the analysis job sends them once it has finished) and others go out at once.
 *
 * Typed structurally so that any assistant-shaped value (contract Assistant, a stored row, a
 * call's snapshot of its assistant) can be passed without conversion.
 */
export interface AnalysisToggles {
  analysis?: {
    summary?: { enabled?: boolean } | null;
    success_evaluation?: { enabled?: boolean } | null;
    structured_data?: { enabled?: boolean } | null;
  } | null;
}

export function needsPostCallAnalysis(config: AnalysisToggles | null | undefined): boolean {
  const analysis = config?.analysis;
  if (!analysis) return false;
  return Boolean(
    analysis.summary?.enabled || analysis.success_evaluation?.enabled || analysis.structured_data?.enabled,
  );
}
