import {
  CountryList,
  type CreateExtensionBody,
  CreateExtensionResult,
  type CreatePhoneNumberBody,
  ExtensionStatus,
  type ExtensionStatusBody,
  type ImportNumbersBody,
  ImportNumbersResult,
  Integration,
  type OutboundCallBody,
  OutboundCallResult,
  PhoneNumber,
  PhoneNumberList,
  type UpdatePhoneNumberBody,
  type WhatsappIntegrateBody,
  WhatsappIntegrateResult,
} from "@parley/contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { useWorkspaceId } from "../lib/auth-context.ts";
import { ApiError, api, type RequestOptions } from "../lib/http-client.ts";

// The request bodies as sent: fields with a default may be left out (the server fills them).
export type NewPhoneNumber = z.input<typeof CreatePhoneNumberBody>;
export type NewImport = z.input<typeof ImportNumbersBody>;
export type NewExtension = z.input<typeof CreateExtensionBody>;
export type NewMessagingNumber = z.input<typeof WhatsappIntegrateBody>;

/** Phone numbers of the workspace: own and imported vendor numbers, SIP trunks, extensions, messaging numbers (spec §7). */
export const phoneNumberKeys = {
  all: (workspaceId: string) => [workspaceId, "phone-numbers"] as const,
  list: (workspaceId: string) => [workspaceId, "phone-numbers", "list"] as const,
  detail: (workspaceId: string, id: string) => [workspaceId, "phone-numbers", "detail", id] as const,
  countries: (workspaceId: string, locale: string) => [workspaceId, "phone-numbers", "countries", locale] as const,
  extensionStatus: (workspaceId: string, extension: string, domain: string) =>
    [workspaceId, "phone-numbers", "extension-status", extension, domain] as const,
  /** Under the integrations key, so saving credentials on the Integrations page refreshes it too. */
  integrations: (workspaceId: string) => [workspaceId, "integrations", "with-ids"] as const,
};

/**
 * Statuses whose server text is the message (spec §8: "This phone number is already registered in
 * your workspace", "Invalid phone number format…", "Unable to configure phone service…", "System is
 * busy…", the credential, extension and messaging texts): the generic status words in front would
 * only hide what to fix.
 */
const TEXT_AS_RETURNED = new Set([400, 409, 422, 500, 502, 503]);

/** The failure with the server's own sentence as its message when the spec says to show it as returned. */
export function asReturned(error: unknown): unknown {
  if (!(error instanceof ApiError) || !TEXT_AS_RETURNED.has(error.status) || !error.detail) return error;
  // A 422 listing fields reads best as its field sentences, which the message already holds.
  if (error.fieldErrors.length > 0) return error;
  // A generic 500 body says nothing the status words do not; the spec's texts are the ones worth showing.
  if (error.status === 500 && !/^Failed to /.test(error.detail)) return error;
  return new ApiError(error.status, error.detail, error.detail, error.fieldErrors);
}

/** A request whose failure carries the server's text (see asReturned). */
async function send(path: string, options?: RequestOptions): Promise<unknown> {
  try {
    return await api.request(path, options);
  } catch (error) {
    throw asReturned(error);
  }
}

export const fetchPhoneNumbers = async () => PhoneNumberList.parse(await send("/phone-numbers")).phone_numbers;
export const fetchPhoneNumber = async (id: string) => PhoneNumber.parse(await send(`/phone-numbers/${id}`));
export const fetchCountries = async (locale: string) =>
  CountryList.parse(await send("/phone-numbers/countries", { query: { locale } })).countries;

export const createPhoneNumber = async (body: NewPhoneNumber) =>
  PhoneNumber.parse(await send("/phone-numbers", { method: "POST", body }));
export const updatePhoneNumber = async (id: string, body: UpdatePhoneNumberBody) =>
  PhoneNumber.parse(await send(`/phone-numbers/${id}`, { method: "PATCH", body }));
export const deletePhoneNumber = (id: string) => send(`/phone-numbers/${id}`, { method: "DELETE" });

export const importNumbers = async (body: NewImport) =>
  ImportNumbersResult.parse(await send("/phone-numbers/providers/import-numbers", { method: "POST", body }));
export const createExtension = async (body: NewExtension) =>
  CreateExtensionResult.parse(await send("/phone-numbers/extensions", { method: "POST", body }));
export const fetchExtensionStatus = async (body: ExtensionStatusBody) =>
  ExtensionStatus.parse(await send("/phone-numbers/extensions/status", { method: "POST", body }));
export const integrateMessagingNumber = async (body: NewMessagingNumber) =>
  WhatsappIntegrateResult.parse(await send("/phone-numbers/whatsapp/integrate", { method: "POST", body }));
export const makeOutboundCall = async (body: OutboundCallBody) =>
  OutboundCallResult.parse(await send("/make_outbound_call", { method: "POST", body }));

export const phoneNumbersQuery = (workspaceId: string) =>
  queryOptions({ queryKey: phoneNumberKeys.list(workspaceId), queryFn: fetchPhoneNumbers });

export const usePhoneNumbers = () => useQuery(phoneNumbersQuery(useWorkspaceId()));

export function usePhoneNumber(id: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: phoneNumberKeys.detail(workspaceId, id),
    queryFn: () => fetchPhoneNumber(id),
    // A missing number is a 404 that will not heal on retry.
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
}

/** Country names in the interface language; they never change while the page is open. */
export function useCountries(locale: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: phoneNumberKeys.countries(workspaceId, locale),
    queryFn: () => fetchCountries(locale),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** A saved integration with the id the phone number APIs take (absent when the server does not send one). */
export const SavedIntegration = Integration.extend({ id: z.string().uuid().nullish() });
export type SavedIntegration = z.infer<typeof SavedIntegration>;

/** The workspace's integrations with their ids, for choosing whose credentials drive a number. */
export function useSavedIntegrations() {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: phoneNumberKeys.integrations(workspaceId),
    queryFn: async () =>
      z.object({ integrations: z.array(SavedIntegration) }).parse(await api.request("/integrations")).integrations,
  });
}

/** The workspace's stored credentials for one provider, when there are any and they can be named. */
export const savedIntegrationsFor = (integrations: readonly SavedIntegration[] | undefined, provider: string) =>
  (integrations ?? []).filter(
    (i): i is SavedIntegration & { id: string } => i.provider === provider && i.configured && Boolean(i.id),
  );

/**
 * The registration state of an extension, asked again every few seconds while shown (a phone may
 * register or drop at any time). Nothing is asked while `target` is null.
 */
export function useExtensionStatus(target: ExtensionStatusBody | null, intervalMs = 3000) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: phoneNumberKeys.extensionStatus(workspaceId, target?.extension ?? "", target?.domain ?? ""),
    queryFn: () => fetchExtensionStatus(target ?? { extension: "", domain: "" }),
    enabled: target !== null,
    refetchInterval: intervalMs,
    retry: false,
  });
}

/** Every write changes what the list shows: the workspace's phone number queries are read again. */
function useRefresh() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: phoneNumberKeys.all(workspaceId) });
}

export function useCreatePhoneNumber() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: createPhoneNumber, onSuccess: refresh });
}

export function useUpdatePhoneNumber(id: string) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: UpdatePhoneNumberBody) => updatePhoneNumber(id, body),
    onSuccess: (number) => {
      queryClient.setQueryData(phoneNumberKeys.detail(workspaceId, id), number);
      return refresh();
    },
  });
}

export function useDeletePhoneNumber() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deletePhoneNumber,
    onSuccess: (_answer, id) => {
      // The detail page being left must not read the deleted number again.
      queryClient.removeQueries({ queryKey: phoneNumberKeys.detail(workspaceId, id) });
      return queryClient.invalidateQueries({ queryKey: phoneNumberKeys.list(workspaceId) });
    },
  });
}

export function useImportNumbers() {
  const refresh = useRefresh();
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importNumbers,
    // Typed credentials are kept as the workspace's integration: that list changes too.
    onSuccess: () =>
      Promise.all([refresh(), queryClient.invalidateQueries({ queryKey: phoneNumberKeys.integrations(workspaceId) })]),
  });
}

export function useCreateExtension() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: createExtension, onSuccess: refresh });
}

export function useIntegrateMessagingNumber() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: integrateMessagingNumber, onSuccess: refresh });
}

/** Places a call; the call logs show it, so nothing of this resource is refreshed. */
export const useOutboundCall = () => useMutation({ mutationFn: makeOutboundCall });
