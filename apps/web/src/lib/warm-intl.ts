/**
 * Makes the browser's first Intl formatter, before the app's code arrives. The first one a page
 * makes loads the internationalisation data and the time zone (tens of milliseconds on a slow
 * phone); pages make theirs while rendering (dates, sizes, money), where that cost lengthens a
 * render the user waits on. Made here it is a short task of its own, while the scripts download
 * and the main thread has nothing else to do; every later formatter, in any language, is cheap.
 */
export function warmIntl() {
  new Intl.DateTimeFormat().format(0);
}
