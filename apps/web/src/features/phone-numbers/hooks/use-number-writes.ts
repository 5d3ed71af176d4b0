import type { ImportNumbersResult, PhoneNumber } from "@parley/contract";
import type { TFunction } from "i18next";
import {
  type NewExtension,
  type NewImport,
  type NewMessagingNumber,
  type NewPhoneNumber,
  useCreateExtension,
  useCreatePhoneNumber,
  useDeletePhoneNumber,
  useImportNumbers,
  useIntegrateMessagingNumber,
  useOutboundCall,
} from "../../../api/phone-numbers.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import { messagingBrand } from "../components/provider-names.ts";

/** Spec §8: "Successfully imported N phone number(s) (M failed)", or "No phone numbers were imported". */
export function importNotice(t: TFunction, result: ImportNumbersResult) {
  return result.imported_count > 0
    ? {
        text: t("imported", { imported: result.imported_count, failed: result.failed_count }),
        variant: "success" as const,
      }
    : { text: t("importedNone"), variant: "error" as const };
}

/**
 * The writes of the phone number pages with their spec §8 notices. A failing save throws back to its
 * dialog, which keeps what was typed and shows the server's text; a delete or a call from a row says
 * its failure in a notice.
 */
export function useNumberWrites(t: TFunction) {
  const { success, failure, error } = useNotice();
  const create = useCreatePhoneNumber();
  const importer = useImportNumbers();
  const extension = useCreateExtension();
  const messaging = useIntegrateMessagingNumber();
  const call = useOutboundCall();
  const remove = useDeletePhoneNumber();

  return {
    create: async (body: NewPhoneNumber) => {
      await create.mutateAsync(body);
      success(t("created"));
    },
    importNumbers: async (body: NewImport) => {
      const result = await importer.mutateAsync(body);
      const notice = importNotice(t, result);
      (notice.variant === "success" ? success : error)(notice.text);
      return result;
    },
    createExtension: async (body: NewExtension) => {
      const result = await extension.mutateAsync(body);
      success(t("created"));
      return result;
    },
    integrateMessaging: async (body: NewMessagingNumber) => {
      const result = await messaging.mutateAsync(body);
      success(t("messagingIntegrated", { provider: messagingBrand() }));
      return result;
    },
    call: async (number: PhoneNumber, destination: string) => {
      await call.mutateAsync({ caller_uuid: number.id, destination_number: destination });
      success(t("callInitiated"));
    },
    remove: (number: PhoneNumber, after?: () => void) =>
      remove.mutate(number.id, {
        onSuccess: () => {
          success(t("deleted"));
          after?.();
        },
        onError: failure,
      }),
    removing: remove.isPending,
  };
}
