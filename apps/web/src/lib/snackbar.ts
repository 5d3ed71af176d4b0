/**
 * The app's success and error notices, without loading notistack until the first one is shown.
 * notistack (and goober, the styling it brings) cost every signed-in page a script and tens of
 * milliseconds of evaluation and style insertion on its first load, for notices that appear only
 * after an action. Screens call `useSnackbar().enqueueSnackbar` as they would notistack's; the
 * first notice asks the layout to mount notistack's provider (app/notifications.tsx), and notices
 * wait in order until it is there.
 */
export type NoticeVariant = "success" | "error" | "info" | "warning";
interface Notice {
  message: string;
  options: { variant: NoticeVariant };
}
type Show = (message: string, options: { variant: NoticeVariant }) => void;

const waiting: Notice[] = [];
let show: Show | null = null;
let wanted = false;
const listeners = new Set<() => void>();

function enqueueSnackbar(message: string, options: { variant: NoticeVariant }) {
  if (show) {
    show(message, options);
    return;
  }
  waiting.push({ message, options });
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
}

const handle = { enqueueSnackbar };

/** notistack's hook, as the screens use it: the same object on every render. */
export function useSnackbar() {
  return handle;
}

/** For the layout: whether a notice has been asked for, so the provider should be mounted. */
export const noticesWanted = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  get: () => wanted,
};

/**
 * Called by the mounted provider with its way of showing a notice (null when it unmounts, on
 * signing out): the notices that waited are shown at once, in order.
 */
export function connectNotices(next: Show | null) {
  show = next;
  if (!next) return;
  for (const notice of waiting.splice(0)) next(notice.message, notice.options);
}
