import Typography from "@mui/material/Typography";
import type { PhoneNumber } from "@parley/contract";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { TEL } from "../../../components/form-fields/field-spec.ts";
import { SchemaFormDialog } from "../../../components/schema-form-dialog.tsx";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";
import { compactNumber, e164Problem } from "../forms/number-rules.ts";

/** Another extension, as the server's SIP route reads a destination (2 to 10 digits). */
const EXTENSION = /^[0-9]{2,10}$/;
const SIP_URI = /^sips?:\S+$/i;

/**
 * What "Call a number" may send from a number of `provider`. A carrier's number calls a number in
 * E.164, + and the country code as the field's hint says (separators are forgiven and removed), so
 * "12345" is refused beside the field rather than dialled. A SIP trunk may also dial a SIP URI, sent
 * as typed; an extension dials another extension (the server's rule), a SIP URI or a number.
 */
export function callDestinationForm(
  provider: PhoneNumber["provider"],
  messages: { required: string; invalid: string; extensionInvalid: string },
) {
  const sip = provider === "sip_trunk" || provider === "extension";
  return z.object({
    destination_number: z
      .string()
      .trim()
      .min(1, messages.required)
      .transform((typed, ctx) => {
        if (e164Problem(typed) === null) return compactNumber(typed);
        if ((sip && SIP_URI.test(typed)) || (provider === "extension" && EXTENSION.test(typed))) return typed;
        ctx.addIssue({
          code: "custom",
          message: provider === "extension" ? messages.extensionInvalid : messages.invalid,
        });
        return z.NEVER;
      }),
  });
}

/**
 * The destination field's hint: an extension dials other extensions, SIP addresses or numbers, so
 * the "+ and country code" hint alone is not for it.
 */
export const destinationHelpKey = (provider: PhoneNumber["provider"]) =>
  provider === "extension" ? "call.extensionHelp" : "call.destinationHelp";

/** "Call a number": the number's outbound assistant calls the destination from this number. */
export function CallNumberDialog(props: {
  number: PhoneNumber;
  onClose: () => void;
  onSubmit: (destination: string) => Promise<void>;
}) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const { provider } = props.number;
  const schema = useMemo(
    () =>
      callDestinationForm(provider, {
        required: t("rules.numberRequired"),
        invalid: t("rules.numberInvalid"),
        extensionInvalid: t("rules.extInvalid"),
      }),
    [t, provider],
  );
  const form = useSchemaForm(schema, { destination_number: "" });
  const speaker = props.number.outbound_agent_name;
  return (
    <SchemaFormDialog
      form={form}
      title={t("call.title")}
      onClose={props.onClose}
      onValid={(values) => props.onSubmit(values.destination_number)}
      lockWhileBusy
      busySpinner
      busyLabel={t("call.calling")}
      submitLabel={t("call.submit")}
      fields={[
        {
          kind: "node",
          key: "from",
          node: (
            <>
              <Typography>
                {t("call.from")} <span dir="ltr">{props.number.number}</span>
              </Typography>
              <Typography color={speaker ? "text.secondary" : "warning.main"} variant="body2">
                {speaker ? t("call.speaker", { name: speaker }) : t("call.noSpeaker")}
              </Typography>
            </>
          ),
        },
        {
          name: "destination_number",
          label: t("fields.destination"),
          helperText: t(destinationHelpKey(provider)),
          type: "tel",
          autoComplete: "off",
          required: true,
          autoFocus: true,
          slotProps: TEL,
        },
      ]}
    />
  );
}
