import MicOutlined from "@mui/icons-material/MicOutlined";
import SmartToyOutlined from "@mui/icons-material/SmartToyOutlined";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { paths } from "../../../config/paths.ts";

/** The two things people come to do first. */
export function QuickActionsCard() {
  const { t } = useTranslation("home");
  return (
    <Card component="section" aria-labelledby="quick-actions-title" sx={{ height: "100%" }}>
      <CardContent>
        <Typography id="quick-actions-title" variant="h6" component="h2" sx={{ mb: 2 }}>
          {t("quickActions")}
        </Typography>
        <Stack spacing={1.5}>
          <Button component={Link} to={paths.assistants} variant="contained" startIcon={<SmartToyOutlined />}>
            {t("createAssistant")}
          </Button>
          <Button component={Link} to={paths.assistant} variant="outlined" startIcon={<MicOutlined />}>
            {t("talkToAssistant")}
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
