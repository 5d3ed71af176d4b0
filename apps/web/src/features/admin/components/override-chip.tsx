import TuneOutlined from "@mui/icons-material/TuneOutlined";
import Chip from "@mui/material/Chip";
import { useTranslation } from "react-i18next";

/**
 * Marks a user whose limits were set by hand (an enterprise quota): they win over the tier and do
 * not follow its edits, so an admin must be able to tell such users apart at a glance.
 */
export function OverrideChip() {
  const { t } = useTranslation("admin");
  return (
    <Chip
      size="small"
      variant="outlined"
      icon={<TuneOutlined />}
      label={t("override")}
      title={t("overrideHint")}
      sx={{ mx: 1 }}
    />
  );
}
