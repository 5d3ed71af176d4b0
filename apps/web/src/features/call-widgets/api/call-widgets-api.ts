import { CallWidget, CallWidgetCreate, CallWidgetList, type CallWidgetUpdate } from "@parley/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { useWorkspaceId } from "../../../lib/auth-context.ts";
import { api } from "../../../lib/http-client.ts";

/** Call widgets of the workspace (issue 16); only this feature reads them. */
const widgetKeys = {
  all: (workspaceId: string) => [workspaceId, "call-widgets"] as const,
  list: (workspaceId: string) => [workspaceId, "call-widgets", "list"] as const,
  one: (workspaceId: string, id: string) => [workspaceId, "call-widgets", "one", id] as const,
};

export function useCallWidgets() {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: widgetKeys.list(workspaceId),
    queryFn: async () => CallWidgetList.parse(await api.request("/call-widgets")).data,
  });
}

export function useCallWidget(id: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: widgetKeys.one(workspaceId, id),
    queryFn: async () => CallWidget.parse(await api.request(`/call-widgets/${id}`)),
  });
}

/** Every write answers the widget as it now is: the cache takes it, the list is refreshed. */
function useWidgetWrite<V>(request: (vars: V) => Promise<unknown>) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (vars: V) => CallWidget.parse(await request(vars)),
    onSuccess: (widget) => {
      queryClient.setQueryData(widgetKeys.one(workspaceId, widget.id), widget);
      return queryClient.invalidateQueries({ queryKey: widgetKeys.list(workspaceId) });
    },
  });
}

/** What the create dialog asks for; everything else starts from the defaults and is set in the editor. */
export const NewWidget = CallWidgetCreate.pick({ name: true, assistant_id: true });
export type NewWidget = z.infer<typeof NewWidget>;

/**
 * Creates a widget. Shaped as a list page's save, whose `id` names the row being edited: widgets
 * are edited on their own page, so the list only ever creates.
 */
export const useCreateCallWidget = () =>
  useWidgetWrite(({ body }: { id: string | null; body: NewWidget }) =>
    api.request("/call-widgets", { method: "POST", body }),
  );

export const useUpdateCallWidget = (id: string) =>
  useWidgetWrite((body: CallWidgetUpdate) => api.request(`/call-widgets/${id}`, { method: "PATCH", body }));

export const useRotateWidgetKey = (id: string) =>
  useWidgetWrite(() => api.request(`/call-widgets/${id}/rotate-key`, { method: "POST" }));

export function useDeleteCallWidget() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.request(`/call-widgets/${id}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: widgetKeys.all(workspaceId) }),
  });
}
