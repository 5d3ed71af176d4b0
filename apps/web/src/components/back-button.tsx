import ArrowBack from "@mui/icons-material/ArrowBack";
import Button from "@mui/material/Button";
import { Link as RouterLink } from "react-router";

/** Back to the list a detail page belongs to; the arrow points the reading direction's way back. */
export function BackButton({ to, label }: { to: string; label: string }) {
  return (
    <Button
      component={RouterLink}
      to={to}
      startIcon={<ArrowBack sx={{ "[dir=rtl] &": { transform: "scaleX(-1)" } }} />}
    >
      {label}
    </Button>
  );
}
