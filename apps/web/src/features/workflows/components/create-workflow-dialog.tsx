import { CreateWorkflowBody } from "@parley/contract";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { SchemaFormDialog } from "../../../components/schema-form-dialog.tsx";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";

const NewWorkflow = CreateWorkflowBody.pick({ name: true, description: true });

/** Names a new workflow; it starts as a start node joined to an end node. */
export function CreateWorkflowDialog(props: {
  defaultName?: string;
  onClose: () => void;
  onCreate: (body: z.output<typeof NewWorkflow>) => Promise<unknown>;
}) {
  const { t } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const form = useSchemaForm(NewWorkflow, { name: props.defaultName ?? "", description: "" });
  return (
    <SchemaFormDialog
      form={form}
      title={t("create.title")}
      submitLabel={t("create.submit")}
      onClose={props.onClose}
      onValid={props.onCreate}
      fields={[
        { name: "name", label: t("create.name"), required: true, autoFocus: true },
        { name: "description", label: t("create.description"), multiline: true, minRows: 2 },
      ]}
    />
  );
}
