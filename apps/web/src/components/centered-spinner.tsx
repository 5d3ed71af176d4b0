import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";

export function CenteredSpinner({ label = "Loading" }: { label?: string }) {
  return (
    <Box role="status" aria-label={label} sx={{ display: "grid", placeItems: "center", minHeight: "60vh" }}>
      <CircularProgress />
    </Box>
  );
}
