import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";

/** The product's name at the head of the navigation (the sidebar's, or the topbar's in horizontal layout). */
export function Brand({ compact, height = 70 }: { compact: boolean; height?: number }) {
  return (
    <Box
      sx={{
        height,
        display: "flex",
        alignItems: "center",
        px: compact ? 0 : 3,
        justifyContent: compact ? "center" : "flex-start",
        flexShrink: 0,
      }}
    >
      <Typography variant="h5" component="span" sx={{ fontWeight: 800, color: "primary.main" }}>
        {compact ? "P" : "Parley"}
      </Typography>
    </Box>
  );
}
