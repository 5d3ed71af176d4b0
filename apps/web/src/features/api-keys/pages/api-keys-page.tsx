import AddIcon from "@mui/icons-material/Add";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import type { ApiKey, CreateApiKeyBody, CreatedApiKey } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { EmptyState } from "../../../components/list-placeholders.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { useAuth } from "../../../lib/auth-context.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from "../api/api-keys-api.ts";
import { ApiKeysTable } from "../components/api-keys-table.tsx";
import { CreateKeyDialog } from "../components/create-key-dialog.tsx";
import { SecretDialog } from "../components/secret-dialog.tsx";

/** API keys: bearer tokens for programs that use the workspace through the API. */
export default function ApiKeysPage() {
  const { t } = useTranslation(["api-keys", "translation"], { nsMode: "fallback" });
  const { workspace } = useAuth();
  const notice = useNotice();
  const keys = useApiKeys();
  const createKey = useCreateApiKey();
  const revokeKey = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  // Creating and revoking keys is for owners (the API answers 403 to members).
  const isOwner = workspace?.role === "owner";

  const create = async (body: CreateApiKeyBody) => {
    const key = await createKey.mutateAsync(body);
    setCreating(false);
    setCreated(key);
    notice.success(t("created"));
  };

  const revoke = (key: ApiKey) => {
    setRevoking(null);
    revokeKey.mutate(key.id, {
      onSuccess: () => notice.success(t("revoked", { name: key.name })),
      onError: notice.failure,
    });
  };

  const createButton = isOwner ? (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)}>
      {t("create")}
    </Button>
  ) : undefined;
  return (
    <>
      <PageHeader title={t("nav.apiKeys")} subtitle={t("subtitle")} actions={createButton} />
      {!isOwner && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t("ownerOnly")}
        </Alert>
      )}
      <ApiKeysTable
        keys={keys}
        canRevoke={isOwner}
        onRevoke={(key) => (key.revoked_at ? notice.info(t("alreadyRevoked")) : setRevoking(key))}
        empty={<EmptyState title={t("emptyTitle")} hint={t("emptyHint")} action={createButton} />}
      />
      <Box sx={{ mt: 3 }}>
        <Typography variant="h6" component="h2">
          {t("usageTitle")}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          {t("usageText")}
        </Typography>
        <Box
          component="pre"
          dir="ltr"
          sx={{ p: 2, borderRadius: 1, bgcolor: "action.hover", overflowX: "auto", fontSize: 13, m: 0 }}
        >
          {`curl ${window.location.origin}/api/v1/agents \\\n  -H "Authorization: Bearer pk_live_…"`}
        </Box>
      </Box>
      {creating && <CreateKeyDialog onClose={() => setCreating(false)} onSubmit={create} />}
      {created && <SecretDialog created={created} onClose={() => setCreated(null)} />}
      <ConfirmDialog
        open={revoking !== null}
        title={t("revokeTitle", { name: revoking?.name ?? "" })}
        text={t("revokeText")}
        confirmLabel={t("revoke")}
        onClose={() => setRevoking(null)}
        onConfirm={() => revoking && revoke(revoking)}
      />
    </>
  );
}
