import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { TestCaseOutcome, TestResult, TestRun } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { attemptsText } from "./outcome.ts";
import { OutcomeChip } from "./outcome-chip.tsx";
import { ResultCard } from "./result-card.tsx";

/** A case and its results are matched by case id, or by name once the case itself was deleted. */
const caseKey = (item: Pick<TestCaseOutcome, "case_id" | "case_name">) => item.case_id ?? `name:${item.case_name}`;

/** Each case of the run: how it came out over its attempts, then each attempt's call. */
export function CaseOutcomes({ run }: { run: TestRun }) {
  const { t } = useTranslation("test-suites");
  const byCase = new Map<string, TestResult[]>();
  for (const result of run.results) byCase.set(caseKey(result), [...(byCase.get(caseKey(result)) ?? []), result]);
  return (
    <Box component="section" aria-labelledby="case-outcomes-heading">
      <Typography id="case-outcomes-heading" variant="h6" component="h2" sx={{ mb: 2 }}>
        {t("run.cases")}
      </Typography>
      <Stack spacing={2}>
        {run.cases.map((outcome) => {
          const results = (byCase.get(caseKey(outcome)) ?? []).sort((a, b) => a.attempt - b.attempt);
          return (
            <Paper
              key={caseKey(outcome)}
              variant="outlined"
              component="article"
              aria-label={outcome.case_name}
              sx={{ p: 2 }}
            >
              <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: "center", flexWrap: "wrap", mb: 1.5 }}>
                <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }} dir="auto">
                  {outcome.case_name}
                </Typography>
                <OutcomeChip status={outcome.status} suffix={attemptsText(outcome)} />
              </Stack>
              <Stack spacing={1}>
                {results.map((result) => (
                  <ResultCard key={result.id} result={result} showAttempt={run.repeat > 1} />
                ))}
              </Stack>
            </Paper>
          );
        })}
      </Stack>
    </Box>
  );
}
