import i18n, { type BackendModule } from "i18next";
import { initReactI18next } from "react-i18next";
import en from "./locales/en.json";

type Strings = { default: Record<string, unknown> };
// English app-shell strings ship in the first bundle; every other language is a chunk loaded when chosen.
const shellLoaders = import.meta.glob<Strings>(["./locales/*.json", "!./locales/en.json"]);
// Each feature (and each shared widget with text of its own, e.g. components/voice-preview) keeps its
// strings in <folder>/locales/<lang>.json, as an i18next namespace named after the folder, loaded
// with the page that uses it (so sign-in stays light).
const featureLoaders = import.meta.glob<Strings>(["../features/*/locales/*.json", "../components/*/locales/*.json"]);

const lazyBundles: BackendModule = {
  type: "backend",
  init() {},
  read(language, namespace, callback) {
    const load =
      namespace === "translation"
        ? shellLoaders[`./locales/${language}.json`]
        : (featureLoaders[`../features/${namespace}/locales/${language}.json`] ??
          featureLoaders[`../components/${namespace}/locales/${language}.json`]);
    if (!load) {
      callback(null, {});
      return;
    }
    load().then(
      (module) => callback(null, module.default),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

void i18n
  .use(lazyBundles)
  .use(initReactI18next)
  .init({
    resources: { en: { translation: en } },
    partialBundledLanguages: true,
    lng: "en",
    fallbackLng: "en",
    ns: ["translation"],
    defaultNS: "translation",
    // A feature's namespace falls back to the shell's strings (common.*, nav.*) for keys it does not have.
    fallbackNS: "translation",
    interpolation: { escapeValue: false },
    returnNull: false,
  });

/** Loads a language's strings (shell and every feature namespace in use) if needed, then switches. */
export async function setLanguage(code: string) {
  // i18next announces a change even to the language already in use, and every mounted
  // useTranslation then renders again: on the first load that is a second render of the whole page.
  if (i18n.language === code) return;
  await i18n.changeLanguage(code);
}

export default i18n;
