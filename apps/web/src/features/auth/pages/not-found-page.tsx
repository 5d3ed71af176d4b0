import Button from "@mui/material/Button";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { paths } from "../../../config/paths.ts";
import { AuthCard } from "../components/auth-card.tsx";

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t("auth.notFoundTitle")} subtitle={t("auth.notFoundText")}>
      <Button component={Link} to={paths.root} variant="contained">
        {t("auth.goHome")}
      </Button>
    </AuthCard>
  );
}
