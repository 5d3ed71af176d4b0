import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { errorText } from "./error-text.ts";

/** A list or page that failed to load: why (the error's text, else `fallback`), and a button to ask again. */
export function RetryAlert(props: { error: unknown; fallback: string; retryLabel: string; onRetry: () => void }) {
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={props.onRetry}>
          {props.retryLabel}
        </Button>
      }
    >
      {errorText(props.error, props.fallback)}
    </Alert>
  );
}
