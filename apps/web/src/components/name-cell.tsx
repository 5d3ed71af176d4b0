import Typography from "@mui/material/Typography";

/** A table cell's lead: the row's name in bold, what it is or does in small print under it. */
export function NameCell({ name, detail }: { name: string; detail?: string | null }) {
  return (
    <>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {name}
      </Typography>
      {detail && (
        <Typography variant="caption" color="text.secondary">
          {detail}
        </Typography>
      )}
    </>
  );
}
