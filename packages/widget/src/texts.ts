import type { MicrophoneProblem } from "@parley/browser-audio";
import type { WidgetLanguage } from "@parley/contract";

/** The widget's own words; the button, title and call labels are the workspace's (appearance). */
export interface WidgetTexts {
  connecting: string;
  listening: string;
  thinking: string;
  speaking: string;
  mute: string;
  unmute: string;
  close: string;
  ended: string;
  failed: string;
  you: string;
  conversation: string;
  mic: Record<MicrophoneProblem, string>;
}

const en: WidgetTexts = {
  connecting: "Connecting…",
  listening: "Listening",
  thinking: "Thinking…",
  speaking: "Speaking",
  mute: "Mute",
  unmute: "Unmute",
  close: "Close",
  ended: "Call ended.",
  failed: "The call could not start. Please try again.",
  you: "You",
  conversation: "Conversation",
  mic: {
    unsupported: "This browser cannot use a microphone here.",
    denied: "Microphone access was denied. Allow it in your browser's site settings and try again.",
    no_device: "No microphone was found. Connect one and try again.",
    not_live: "The microphone stopped. Check it and try again.",
    busy: "The microphone is in use by another application.",
    constraints: "The microphone does not support the required settings.",
  },
};

const TEXTS: Record<WidgetLanguage, WidgetTexts> = {
  en,
  es: {
    connecting: "Conectando…",
    listening: "Escuchando",
    thinking: "Pensando…",
    speaking: "Hablando",
    mute: "Silenciar",
    unmute: "Activar sonido",
    close: "Cerrar",
    ended: "Llamada finalizada.",
    failed: "No se pudo iniciar la llamada. Inténtalo de nuevo.",
    you: "Tú",
    conversation: "Conversación",
    mic: {
      unsupported: "Este navegador no puede usar un micrófono aquí.",
      denied: "Se denegó el acceso al micrófono. Permítelo en la configuración del sitio e inténtalo de nuevo.",
      no_device: "No se encontró ningún micrófono. Conecta uno e inténtalo de nuevo.",
      not_live: "El micrófono se detuvo. Compruébalo e inténtalo de nuevo.",
      busy: "Otra aplicación está usando el micrófono.",
      constraints: "El micrófono no admite la configuración necesaria.",
    },
  },
  fr: {
    connecting: "Connexion…",
    listening: "À l'écoute",
    thinking: "Réflexion…",
    speaking: "Parle",
    mute: "Couper le micro",
    unmute: "Réactiver le micro",
    close: "Fermer",
    ended: "Appel terminé.",
    failed: "L'appel n'a pas pu démarrer. Veuillez réessayer.",
    you: "Vous",
    conversation: "Conversation",
    mic: {
      unsupported: "Ce navigateur ne peut pas utiliser de microphone ici.",
      denied: "L'accès au microphone a été refusé. Autorisez-le dans les paramètres du site et réessayez.",
      no_device: "Aucun microphone trouvé. Branchez-en un et réessayez.",
      not_live: "Le microphone s'est arrêté. Vérifiez-le et réessayez.",
      busy: "Le microphone est utilisé par une autre application.",
      constraints: "Le microphone ne prend pas en charge les réglages nécessaires.",
    },
  },
  de: {
    connecting: "Verbinden…",
    listening: "Hört zu",
    thinking: "Denkt nach…",
    speaking: "Spricht",
    mute: "Stummschalten",
    unmute: "Ton an",
    close: "Schließen",
    ended: "Anruf beendet.",
    failed: "Der Anruf konnte nicht starten. Bitte versuchen Sie es erneut.",
    you: "Sie",
    conversation: "Gespräch",
    mic: {
      unsupported: "Dieser Browser kann hier kein Mikrofon verwenden.",
      denied:
        "Der Mikrofonzugriff wurde verweigert. Erlauben Sie ihn in den Website-Einstellungen und versuchen Sie es erneut.",
      no_device: "Kein Mikrofon gefunden. Schließen Sie eines an und versuchen Sie es erneut.",
      not_live: "Das Mikrofon wurde beendet. Prüfen Sie es und versuchen Sie es erneut.",
      busy: "Das Mikrofon wird von einer anderen Anwendung verwendet.",
      constraints: "Das Mikrofon unterstützt die nötigen Einstellungen nicht.",
    },
  },
  pt: {
    connecting: "Conectando…",
    listening: "Ouvindo",
    thinking: "Pensando…",
    speaking: "Falando",
    mute: "Silenciar",
    unmute: "Ativar som",
    close: "Fechar",
    ended: "Chamada encerrada.",
    failed: "Não foi possível iniciar a chamada. Tente novamente.",
    you: "Você",
    conversation: "Conversa",
    mic: {
      unsupported: "Este navegador não pode usar um microfone aqui.",
      denied: "O acesso ao microfone foi negado. Permita-o nas configurações do site e tente novamente.",
      no_device: "Nenhum microfone encontrado. Conecte um e tente novamente.",
      not_live: "O microfone parou. Verifique-o e tente novamente.",
      busy: "O microfone está sendo usado por outro aplicativo.",
      constraints: "O microfone não suporta as configurações necessárias.",
    },
  },
  ar: {
    connecting: "جارٍ الاتصال…",
    listening: "يستمع",
    thinking: "يفكر…",
    speaking: "يتحدث",
    mute: "كتم الصوت",
    unmute: "إلغاء الكتم",
    close: "إغلاق",
    ended: "انتهت المكالمة.",
    failed: "تعذر بدء المكالمة. يُرجى المحاولة مرة أخرى.",
    you: "أنت",
    conversation: "المحادثة",
    mic: {
      unsupported: "لا يمكن لهذا المتصفح استخدام الميكروفون هنا.",
      denied: "تم رفض الوصول إلى الميكروفون. اسمح به في إعدادات الموقع وحاول مرة أخرى.",
      no_device: "لم يتم العثور على ميكروفون. وصّل ميكروفونًا وحاول مرة أخرى.",
      not_live: "توقف الميكروفون. تحقق منه وحاول مرة أخرى.",
      busy: "الميكروفون قيد الاستخدام من قبل تطبيق آخر.",
      constraints: "الميكروفون لا يدعم الإعدادات المطلوبة.",
    },
  },
  hi: {
    connecting: "कनेक्ट हो रहा है…",
    listening: "सुन रहा है",
    thinking: "सोच रहा है…",
    speaking: "बोल रहा है",
    mute: "म्यूट करें",
    unmute: "अनम्यूट करें",
    close: "बंद करें",
    ended: "कॉल समाप्त हुई।",
    failed: "कॉल शुरू नहीं हो सकी। कृपया फिर से प्रयास करें।",
    you: "आप",
    conversation: "बातचीत",
    mic: {
      unsupported: "यह ब्राउज़र यहाँ माइक्रोफ़ोन का उपयोग नहीं कर सकता।",
      denied: "माइक्रोफ़ोन की अनुमति नहीं मिली। साइट सेटिंग में इसकी अनुमति दें और फिर से प्रयास करें।",
      no_device: "कोई माइक्रोफ़ोन नहीं मिला। एक कनेक्ट करें और फिर से प्रयास करें।",
      not_live: "माइक्रोफ़ोन बंद हो गया। इसे जाँचें और फिर से प्रयास करें।",
      busy: "माइक्रोफ़ोन किसी अन्य ऐप्लिकेशन द्वारा उपयोग में है।",
      constraints: "माइक्रोफ़ोन आवश्यक सेटिंग्स का समर्थन नहीं करता।",
    },
  },
};

export const textsFor = (language: string): WidgetTexts => TEXTS[language as WidgetLanguage] ?? en;
export const isRightToLeft = (language: string) => language === "ar";
