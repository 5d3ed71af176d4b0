import type { UseMutationResult } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { useSnackbar } from "notistack";
import { useState } from "react";
import { errorText } from "../components/error-text.ts";

/** Which dialog a resource page shows: creating, or one of its row actions on an item. */
export type OpenDialog<Item, Action extends string> = { kind: "create" } | { kind: Action; item: Item } | null;

interface Writes<Body> {
  save: UseMutationResult<unknown, Error, { id: string | null; body: Body }>;
  remove: UseMutationResult<unknown, Error, string>;
}

/**
 * The state and writes of a list page whose rows are created, edited and deleted in dialogs
 * (functions, tool servers): the open dialog, a save that throws back to its dialog (so what was
 * typed stays) and notices "created"/"updated"/"deleted" from the page's own namespace.
 */
export function useResourcePage<Item extends { id: string }, Action extends string, Body>(
  t: TFunction,
  writes: Writes<Body>,
) {
  const { enqueueSnackbar } = useSnackbar();
  const [open, setOpen] = useState<OpenDialog<Item, Action | "edit" | "delete">>(null);
  const close = () => setOpen(null);
  const editing = open && "item" in open && open.kind === "edit" ? open.item : null;

  const save = async (body: Body) => {
    await writes.save.mutateAsync({ id: editing?.id ?? null, body });
    enqueueSnackbar(t(editing ? "updated" : "created"), { variant: "success" });
    close();
  };

  const remove = (item: Item) => {
    close();
    writes.remove.mutate(item.id, {
      onSuccess: () => enqueueSnackbar(t("deleted"), { variant: "success" }),
      onError: (error) => enqueueSnackbar(errorText(error, t("common.failed")), { variant: "error" }),
    });
  };

  return { open, setOpen, close, editing, save, remove };
}
