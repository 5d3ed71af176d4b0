import type { UseMutationResult } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { useState } from "react";
import { useNotice } from "./use-notice.ts";

/** Which dialog a resource page shows: creating, or one of its row actions on an item. */
export type OpenDialog<Item, Action extends string> = { kind: "create" } | { kind: Action; item: Item } | null;

interface Writes<Body, Saved> {
  save: UseMutationResult<Saved, Error, { id: string | null; body: Body }>;
  remove: UseMutationResult<unknown, Error, string>;
}

/**
 * The state and writes of a list page whose rows are created, edited and deleted in dialogs
 * (functions, tool servers, webhooks): the open dialog, a save that throws back to its dialog (so
 * what was typed stays) and notices "created"/"updated"/"deleted" from the page's own namespace.
 * `afterSave` names the dialog to show once saved (a new webhook's secret); by default none.
 */
export function useResourcePage<Item extends { id: string }, Action extends string, Body, Saved = unknown>(
  t: TFunction,
  writes: Writes<Body, Saved>,
  afterSave?: (saved: Saved) => OpenDialog<Item, Action | "edit" | "delete">,
) {
  const notice = useNotice();
  const [open, setOpen] = useState<OpenDialog<Item, Action | "edit" | "delete">>(null);
  const close = () => setOpen(null);
  const editing = open && "item" in open && open.kind === "edit" ? open.item : null;
  const deleting = open && "item" in open && open.kind === "delete" ? open.item : null;

  const save = async (body: Body) => {
    const saved = await writes.save.mutateAsync({ id: editing?.id ?? null, body });
    notice.success(t(editing ? "updated" : "created"));
    setOpen(afterSave ? afterSave(saved) : null);
  };

  const remove = (item: Item) => {
    close();
    writes.remove.mutate(item.id, { onSuccess: () => notice.success(t("deleted")), onError: notice.failure });
  };

  /** A row action chosen: its dialog opens on the row's item. */
  const act = (kind: Action | "edit" | "delete", item: Item) => setOpen({ kind, item });

  return { open, setOpen, close, editing, deleting, save, remove, act };
}

export type ResourcePage<Item extends { id: string }, Action extends string> = ReturnType<
  typeof useResourcePage<Item, Action, never>
>;
