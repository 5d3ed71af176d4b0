import type { Assistant, AssistantTemplate, CreateAssistantBody } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useCreateAssistant, useDeleteAssistant } from "../../../api/assistants.ts";
import { errorText } from "../../../components/error-text.ts";
import { paths } from "../../../config/paths.ts";
import { useSnackbar } from "../../../lib/snackbar.ts";
import { duplicateBody } from "../utils/assistant-list.ts";

/** Create (blank, from a template, as a copy) and delete, each with its spec §8 notice. */
export function useAssistantActions() {
  const { t } = useTranslation("assistants");
  const { enqueueSnackbar } = useSnackbar();
  const navigate = useNavigate();
  const createAssistant = useCreateAssistant();
  const deleteAssistant = useDeleteAssistant();

  const fail = (error: unknown) => enqueueSnackbar(errorText(error, t("notices.failed")), { variant: "error" });
  const create = async (body: CreateAssistantBody, notice: string) => {
    try {
      const assistant = await createAssistant.mutateAsync(body);
      enqueueSnackbar(notice, { variant: "success" });
      await navigate(`${paths.assistants}/${assistant.id}`);
    } catch (error) {
      fail(error);
    }
  };

  return {
    create: (name: string) => create({ name }, t("notices.created")),
    createFromTemplate: (template: AssistantTemplate, name: string) =>
      create({ ...template.assistant, name }, t("notices.createdFromTemplate")),
    duplicate: (assistant: Assistant) =>
      create(
        duplicateBody(assistant, t("list.copyName", { name: assistant.name }).slice(0, 120)),
        t("notices.created"),
      ),
    async remove(assistant: Assistant) {
      try {
        await deleteAssistant.mutateAsync(assistant.id);
        enqueueSnackbar(t("notices.deleted"), { variant: "success" });
        return true;
      } catch (error) {
        fail(error);
        return false;
      }
    },
  };
}
