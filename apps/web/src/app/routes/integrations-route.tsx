import Box from "@mui/material/Box";
import IntegrationsPage from "../../features/integrations/pages/integrations-page.tsx";
import { WebhooksSection } from "../../features/webhooks/components/webhooks-section.tsx";

/** /integrations: the providers' credentials, then the workspace's webhooks (two features, composed here). */
export default function IntegrationsRoute() {
  return (
    <>
      <IntegrationsPage />
      <Box sx={{ mt: 5 }}>
        <WebhooksSection />
      </Box>
    </>
  );
}
