import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import en from "./locales/en.json";

// English ships in the first bundle; every other language is a chunk loaded when chosen.
const loaders = import.meta.glob<{ default: Record<string, unknown> }>(["./locales/*.json", "!./locales/en.json"]);

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: "en",
  fallbackLng: "en",
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** Loads a language's strings if needed, then switches to it. */
export async function setLanguage(code: string) {
  if (!i18n.hasResourceBundle(code, "translation")) {
    const load = loaders[`./locales/${code}.json`];
    if (!load) return;
    i18n.addResourceBundle(code, "translation", (await load()).default, true, true);
  }
  await i18n.changeLanguage(code);
}

export default i18n;
