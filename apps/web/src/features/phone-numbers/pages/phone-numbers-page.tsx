import AddIcon from "@mui/icons-material/Add";
import CloudDownloadOutlined from "@mui/icons-material/CloudDownloadOutlined";
import ExpandMore from "@mui/icons-material/ExpandMore";
import Button from "@mui/material/Button";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import type { PhoneNumber } from "@parley/contract";
import { lazy, Suspense, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { usePhoneNumbers } from "../../../api/phone-numbers.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { EmptyState } from "../../../components/list-placeholders.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { useDeferredQuery } from "../../../lib/use-deferred-query.ts";
import { nameOf } from "../components/number-name.ts";
import { type PhoneNumberAction, PhoneNumbersTable } from "../components/phone-numbers-table.tsx";
import { MESSAGING_PROVIDER, messagingBrand } from "../components/provider-names.ts";
import { useNumberWrites } from "../hooks/use-number-writes.ts";

// The dialogs (forms with their validation, the assistant picker and its schemas) load when first
// opened: the list is what everyone opening this page waits for. Each is mounted only while open.
const CreateNumberDialog = lazy(() =>
  import("../components/create-number-dialog.tsx").then((module) => ({ default: module.CreateNumberDialog })),
);
const ImportDialog = lazy(() =>
  import("../components/import-dialog.tsx").then((module) => ({ default: module.ImportDialog })),
);
const ExtensionDialog = lazy(() =>
  import("../components/extension-dialog.tsx").then((module) => ({ default: module.ExtensionDialog })),
);
const MessagingNumberDialog = lazy(() =>
  import("../components/messaging-number-dialog.tsx").then((module) => ({ default: module.MessagingNumberDialog })),
);
const CallNumberDialog = lazy(() =>
  import("../components/call-number-dialog.tsx").then((module) => ({ default: module.CallNumberDialog })),
);

/** Header buttons keep their label on one line; the title beside them gives way instead. */
const NO_WRAP = { whiteSpace: "nowrap", flexShrink: 0 } as const;

type Open =
  | { kind: "create" | "import" | "extension" | "messaging" }
  | { kind: PhoneNumberAction; item: PhoneNumber }
  | null;

/** /phone-numbers: the workspace's numbers, and every way to add one. */
export default function PhoneNumbersPage() {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  // The table is drawn in an interruptible render once the list arrives (lib/use-deferred-query.ts).
  const numbers = useDeferredQuery(usePhoneNumbers());
  const writes = useNumberWrites(t);
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const item = open && "item" in open ? open.item : null;

  const primary = (
    <>
      <Button
        startIcon={<CloudDownloadOutlined />}
        variant="outlined"
        sx={NO_WRAP}
        onClick={() => setOpen({ kind: "import" })}
      >
        {t("import.open")}
      </Button>
      <Button variant="contained" startIcon={<AddIcon />} sx={NO_WRAP} onClick={() => setOpen({ kind: "create" })}>
        {t("add")}
      </Button>
    </>
  );
  return (
    <>
      <PageHeader
        title={t("nav.phoneNumbers")}
        subtitle={t("subtitle")}
        actions={
          <>
            <MoreWays onChoose={(kind) => setOpen({ kind })} />
            {primary}
          </>
        }
      />
      <PhoneNumbersTable
        numbers={numbers}
        empty={
          <EmptyState
            title={t("emptyTitle")}
            hint={t("emptyHint")}
            action={
              <Stack direction="row" spacing={1} sx={{ justifyContent: "center" }}>
                {primary}
              </Stack>
            }
          />
        }
        onAction={(kind, number) => setOpen({ kind, item: number })}
      />
      <Suspense fallback={null}>
        {open?.kind === "create" && (
          <CreateNumberDialog onClose={close} onSubmit={(body) => writes.create(body).then(close)} />
        )}
        {open?.kind === "import" && (
          <ImportDialog onClose={close} onSubmit={(body) => writes.importNumbers(body).then(close)} />
        )}
        {open?.kind === "extension" && <ExtensionDialog onClose={close} onSubmit={writes.createExtension} />}
        {open?.kind === "messaging" && <MessagingNumberDialog onClose={close} onSubmit={writes.integrateMessaging} />}
        {open?.kind === "call" && item && (
          <CallNumberDialog
            number={item}
            onClose={close}
            onSubmit={(destination) => writes.call(item, destination).then(close)}
          />
        )}
      </Suspense>
      <ConfirmDialog
        open={open?.kind === "delete"}
        title={t("deleteTitle")}
        text={t("deleteText", { number: item ? nameOf(item) : "" })}
        confirmLabel={t("delete")}
        onClose={close}
        onConfirm={() => {
          if (item) writes.remove(item);
          close();
        }}
      />
    </>
  );
}

/** The less common ways to add a number: a SIP extension, a messaging app's business number. */
function MoreWays({ onChoose }: { onChoose: (kind: "extension" | "messaging") => void }) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const choose = (kind: "extension" | "messaging") => {
    setAnchor(null);
    onChoose(kind);
  };
  return (
    <>
      <Button
        endIcon={<ExpandMore />}
        sx={NO_WRAP}
        aria-haspopup="menu"
        aria-expanded={anchor ? "true" : undefined}
        aria-controls={anchor ? menuId : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {t("more")}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        <MenuItem onClick={() => choose("extension")}>{t("addExtension")}</MenuItem>
        {MESSAGING_PROVIDER && (
          <MenuItem onClick={() => choose("messaging")}>{t("addMessaging", { provider: messagingBrand() })}</MenuItem>
        )}
      </Menu>
    </>
  );
}
