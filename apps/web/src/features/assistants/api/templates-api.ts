import { AssistantTemplate, CreateAssistantBody } from "@parley/contract";
import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { useWorkspaceId } from "../../../lib/auth-context.ts";
import { api } from "../../../lib/http-client.ts";

export const templateKeys = { list: (workspaceId: string) => [workspaceId, "templates"] as const };

/**
 * A template's assistant is checked against the create body but kept as written: it is sent back
 * on create, and the body's transforms (e.g. the DTMF map into a list) cannot be applied twice.
 */
const TemplateAssistant = z.custom<CreateAssistantBody>((value) => CreateAssistantBody.safeParse(value).success);
const TemplateList = z.array(AssistantTemplate.extend({ assistant: TemplateAssistant }));

/** GET /agents/templates, read once the gallery is first opened. */
export function useTemplates(enabled: boolean) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: templateKeys.list(workspaceId),
    queryFn: async () => TemplateList.parse(await api.request("/agents/templates")),
    staleTime: Number.POSITIVE_INFINITY,
    enabled,
  });
}
