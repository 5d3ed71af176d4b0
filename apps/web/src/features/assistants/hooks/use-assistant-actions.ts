import type { Assistant, AssistantTemplate } from "@parley/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useSnackbar } from "notistack";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { errorText } from "../../../components/error-text.ts";
import { paths } from "../../../config/paths.ts";
import { assistantKeys, createAssistant, deleteAssistant } from "../api/assistants-api.ts";
import { duplicateBody } from "../utils/assistant-list.ts";

/** Create (blank, from a template, as a copy) and delete, each with its spec §8 notice. */
export function useAssistantActions() {
  const { t } = useTranslation("assistants");
  const { enqueueSnackbar } = useSnackbar();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const fail = (error: unknown) => enqueueSnackbar(errorText(error, t("notices.failed")), { variant: "error" });
  const created = async (assistant: Assistant, notice: string) => {
    queryClient.setQueryData(assistantKeys.detail(assistant.id), assistant);
    await queryClient.invalidateQueries({ queryKey: assistantKeys.list() });
    enqueueSnackbar(notice, { variant: "success" });
    await navigate(`${paths.assistants}/${assistant.id}`);
  };

  return {
    async create(name: string) {
      try {
        await created(await createAssistant({ name }), t("notices.created"));
      } catch (error) {
        fail(error);
      }
    },
    async createFromTemplate(template: AssistantTemplate, name: string) {
      try {
        await created(await createAssistant({ ...template.assistant, name }), t("notices.createdFromTemplate"));
      } catch (error) {
        fail(error);
      }
    },
    async duplicate(assistant: Assistant) {
      try {
        const body = duplicateBody(assistant, t("list.copyName", { name: assistant.name }).slice(0, 120));
        await created(await createAssistant(body), t("notices.created"));
      } catch (error) {
        fail(error);
      }
    },
    async remove(assistant: Assistant) {
      try {
        await deleteAssistant(assistant.id);
        queryClient.removeQueries({ queryKey: assistantKeys.detail(assistant.id) });
        await queryClient.invalidateQueries({ queryKey: assistantKeys.list() });
        enqueueSnackbar(t("notices.deleted"), { variant: "success" });
        return true;
      } catch (error) {
        fail(error);
        return false;
      }
    },
  };
}
